/// A FLAC PICTURE metadata block's body (RFC 9639 §8.8), as native FLAC stores it and Vorbis comments carry it
/// in base64: picture type, MIME type, description, four 32-bit image facts, then the picture data, each
/// length and number a big-endian 32-bit value.
enum FLACPicture {
    /// The picture in `body`, the first bytes of a block of `blockLength` bytes (all of them, or a prefix when
    /// the rest streamed past unkept), or nil when the block is malformed: a length past the block's end, or
    /// a picture type beyond 255. The data is kept when the whole block is in `body` and the data fits
    /// `limits.maxArtworkBytes`; otherwise `data` is empty and `size` still says how big the picture is.
    static func artwork(_ body: UnsafeRawBufferPointer, blockLength: Int, limits: MetadataLimits) -> Artwork? {
        var position = 0
        /// The next 32-bit value, when the kept bytes hold it.
        func number() -> Int? {
            guard position + 4 <= body.count else { return nil }
            defer { position += 4 }
            return Int(body.bigEndianUInt32(at: position))
        }
        /// The next length-prefixed string, when the kept bytes hold it and it fits the block.
        func string() -> String? {
            guard let length = number(), length <= blockLength - position, position + length <= body.count else {
                return nil
            }
            defer { position += length }
            return String(decoding: body[position..<position + length], as: UTF8.self)
        }
        guard let type = number(), let pictureType = UInt8(exactly: type), let mimeType = string(),
              let description = string() else { return nil }
        // Width, height, colour depth and palette size say nothing a player needs from a tag.
        position += 16
        guard let size = number(), size <= blockLength - position else { return nil }
        let isKept = blockLength == body.count && size <= limits.maxArtworkBytes
        return Artwork(
            mimeType: mimeType, pictureType: pictureType, description: description, size: size,
            data: isKept ? Array(body[position..<position + size]) : [])
    }
}
