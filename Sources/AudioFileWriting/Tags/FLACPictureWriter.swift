import AudioFileStream

/// Writes artwork as a FLAC PICTURE block's body (RFC 9639 §8.8), which Ogg's Vorbis comments also carry, in
/// base64, as `METADATA_BLOCK_PICTURE`.
public enum FLACPictureWriter {
    /// The body for `artwork`, or nil when its bytes were not kept (only its size is known). Width, height,
    /// depth and colour count are 0: unknown, which §8.8 allows and readers take.
    public static func body(_ artwork: Artwork) -> [UInt8]? {
        guard !artwork.data.isEmpty else { return nil }
        var body: [UInt8] = []
        body.reserveCapacity(artwork.data.count + 64)
        body.append(bigEndian: UInt64(artwork.pictureType), count: 4)
        for text in [artwork.mimeType, artwork.description] {
            body.append(bigEndian: UInt64(text.utf8.count), count: 4)
            body += text.utf8
        }
        body += [UInt8](repeating: 0, count: 16)
        body.append(bigEndian: UInt64(artwork.data.count), count: 4)
        body += artwork.data
        return body
    }
}
