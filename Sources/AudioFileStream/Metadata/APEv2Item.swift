/// One APEv2 item: an 8-byte header (value size and flags, little-endian), a key of printable ASCII ended by a
/// zero byte, and the value.
package struct APEv2Item {
    package static let headerLength = 8

    /// What the item's flags (bits 1–2) say the value is.
    enum Kind: UInt32 {
        case text = 0
        case binary = 1
        /// A UTF-8 link to the content.
        case external = 2
        case reserved = 3
    }

    package let valueSize: Int
    let kind: Kind

    package init(header: UnsafeRawBufferPointer) {
        valueSize = Int(header.littleEndianUInt32(at: 0))
        kind = Kind(rawValue: header.littleEndianUInt32(at: 4) >> 1 & 3) ?? .reserved
    }

    /// The keys of binary cover art items (a file name, a zero byte, the picture), in the order of the ID3v2
    /// picture types, so a key's index is its picture type.
    static let coverArtKeys = [
        "Cover Art (Other)", "Cover Art (Icon)", "Cover Art (Other Icon)", "Cover Art (Front)", "Cover Art (Back)",
        "Cover Art (Leaflet)", "Cover Art (Media)", "Cover Art (Lead Artist)", "Cover Art (Artist)",
        "Cover Art (Conductor)", "Cover Art (Band)", "Cover Art (Composer)", "Cover Art (Lyricist)",
        "Cover Art (Recording Location)", "Cover Art (During Recording)", "Cover Art (During Performance)",
        "Cover Art (Video Capture)", "Cover Art (Fish)", "Cover Art (Illustration)", "Cover Art (Band Logo)",
        "Cover Art (Publisher Logo)",
    ].map { $0.lowercased() }

    /// The picture type of a cover art key (keys are case-insensitive), or nil for any other key.
    static func pictureType(ofKey key: String) -> UInt8? {
        coverArtKeys.firstIndex(of: key.lowercased()).map { UInt8($0) }
    }

    /// The item's value: text split at zero bytes, a link, a picture (cover art), or the size of anything else.
    /// A value that was not kept whole is reported by size, except a picture, which keeps its file name.
    func value(key: String, data: FieldBuffer, limits: MetadataLimits) -> RawTagValue {
        let binary = RawTagValue.binary(size: data.byteCount)
        if kind == .binary, let pictureType = Self.pictureType(ofKey: key) {
            return picture(type: pictureType, data: data, limits: limits) ?? binary
        }
        guard data.isComplete else { return binary }
        switch kind {
        case .text: return .text(TextEncoding.utf8.splitValues(data.kept[...]))
        case .external: return .url(TextEncoding.utf8.decode(data.kept[...]))
        case .binary, .reserved: return binary
        }
    }

    private func picture(type: UInt8, data: FieldBuffer, limits: MetadataLimits) -> RawTagValue? {
        let (fileName, pictureData) = TextEncoding.utf8.splitTerminated(data.kept[...])
        // When only a prefix was kept, the file name must have ended within it.
        guard data.isComplete || !pictureData.isEmpty else { return nil }
        let size = data.byteCount - (pictureData.startIndex - data.kept.startIndex)
        let isKept = data.isComplete && size <= limits.maxArtworkBytes
        return .picture(Artwork(
            mimeType: ImageFormat.mimeType(of: pictureData), pictureType: type, description: fileName, size: size,
            data: isKept ? Array(pictureData) : []
        ))
    }
}
