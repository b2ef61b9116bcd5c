/// Decodes the data of one ID3v2 frame (after its prefix and unsynchronisation are removed) into a raw value,
/// following the frame layouts of ID3v2.4 §4 (ID3v2.2 and 2.3 use the same layouts under other ids).
enum ID3v2FrameDecoder {
    /// The frame's value, or nil for an empty frame (which holds nothing, not even an encoding byte).
    /// A frame that was not kept whole is reported by size, except a picture, whose small header is read from
    /// the kept bytes and whose data is kept only when it fits `limits.maxArtworkBytes`.
    static func value(of header: ID3v2FrameHeader, data: FieldBuffer, limits: MetadataLimits) -> RawTagValue? {
        guard data.byteCount > 0 else { return nil }
        let binary = RawTagValue.binary(size: data.byteCount)
        if header.isOpaque { return binary }
        let bytes = data.kept[...]
        if header.kind == .picture {
            return picture(bytes, totalSize: data.byteCount, isPIC: header.id == "PIC", limits: limits) ?? binary
        }
        guard data.isComplete else { return binary }
        switch header.kind {
        case .text:
            guard let (encoding, rest) = encodedText(bytes) else { return binary }
            return .text(encoding.splitValues(rest))
        case .userText:
            guard let (encoding, rest) = encodedText(bytes) else { return binary }
            let (description, values) = encoding.splitTerminated(rest)
            return .userText(description: description, values: encoding.splitValues(values))
        case .comment:
            guard let (encoding, rest) = encodedText(bytes), rest.count >= 3 else { return binary }
            let language = TextEncoding.latin1.decode(rest.prefix(3))
            let (description, text) = encoding.splitTerminated(rest.dropFirst(3))
            return .comment(language: language, description: description, text: encoding.splitTerminated(text).text)
        case .url:
            return .url(TextEncoding.latin1.splitTerminated(bytes).text)
        case .userURL:
            guard let (encoding, rest) = encodedText(bytes) else { return binary }
            let (description, url) = encoding.splitTerminated(rest)
            return .userURL(description: description, url: TextEncoding.latin1.splitTerminated(url).text)
        case .picture, .other:
            return binary
        }
    }

    /// The text encoding byte that starts most frames, and the bytes after it.
    private static func encodedText(_ bytes: ArraySlice<UInt8>) -> (TextEncoding, ArraySlice<UInt8>)? {
        guard let first = bytes.first, let encoding = TextEncoding(rawValue: first) else { return nil }
        return (encoding, bytes.dropFirst())
    }

    /// APIC: encoding, MIME type (Latin-1, terminated), picture type, description, data.
    /// PIC (ID3v2.2): encoding, a 3-letter image format such as `PNG` or `JPG`, picture type, description, data.
    private static func picture(
        _ bytes: ArraySlice<UInt8>, totalSize: Int, isPIC: Bool, limits: MetadataLimits
    ) -> RawTagValue? {
        guard let (encoding, afterEncoding) = encodedText(bytes) else { return nil }
        let mimeType: String
        var rest: ArraySlice<UInt8>
        if isPIC {
            guard afterEncoding.count >= 3 else { return nil }
            mimeType = Self.mimeType(ofImageFormat: TextEncoding.latin1.decode(afterEncoding.prefix(3)))
            rest = afterEncoding.dropFirst(3)
        } else {
            (mimeType, rest) = TextEncoding.latin1.splitTerminated(afterEncoding)
        }
        guard let pictureType = rest.popFirst() else { return nil }
        let (description, pictureData) = encoding.splitTerminated(rest)
        // When only a prefix was kept, the description must have ended within it for the header to be known.
        guard bytes.count == totalSize || !pictureData.isEmpty else { return nil }
        let headerLength = pictureData.startIndex - bytes.startIndex
        let size = totalSize - headerLength
        let isKept = bytes.count == totalSize && size <= limits.maxArtworkBytes
        return .picture(Artwork(
            mimeType: mimeType, pictureType: pictureType, description: description, size: size,
            data: isKept ? Array(pictureData) : []
        ))
    }

    /// The MIME type for an ID3v2.2 image format.
    private static func mimeType(ofImageFormat format: String) -> String {
        switch format.uppercased() {
        case "JPG": "image/jpeg"
        default: "image/" + format.lowercased()
        }
    }
}
