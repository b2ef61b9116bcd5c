/// The items of an `ilst` box: iTunes' (`moov/udta/meta`, handler `mdir`), keyed by four-character codes, and
/// QuickTime metadata (`moov/meta`, handler `mdta`), keyed by the strings of a `keys` box (`com.apple.quicktime.title`).
///
/// Each item holds `data` boxes whose well-known type says what they hold (QuickTime File Format, "Well-known
/// types"): text (1 UTF-8, 2 UTF-16), pictures (13 JPEG, 14 PNG, 27 BMP), integers (21 signed, 22 unsigned).
/// Items iTunes stores as implicit binary are decoded as it means them: `trkn` and `disk` become the text
/// "3/11", `gnre` (an ID3v1 genre number plus one) the genre's name. Free-form items (`----`) are keyed
/// `----:MEAN:NAME`, as mutagen keys them. Raw keys are the codes as text, byte 0xA9 being `©`.
enum ITunesMetadata {

    /// Well-known data types (QuickTime File Format, table "Well-known data types").
    private enum DataType: UInt32 {
        case implicit = 0, utf8 = 1, utf16 = 2, jpeg = 13, png = 14, signed = 21, unsigned = 22, bmp = 27
    }

    /// The key strings of a `keys` box, in order: item n of the `ilst` is keyed by the n-th (from 1).
    static func keys(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) throws(MP4Invalid) -> [String] {
        var fields = MP4FieldReader(box, in: bytes)
        _ = try fields.versionAndFlags()
        let count = try fields.uint32()
        try fields.requireEntries(count, of: 8)
        var keys: [String] = []
        for _ in 0..<count {
            let size = Int(try fields.uint32())
            guard size >= 8 else { throw MP4Invalid("a key of the 'keys' box has a size of \(size) bytes") }
            try fields.skip(4)  // namespace, 'mdta'
            keys.append(String(decoding: try fields.bytes(size - 8), as: UTF8.self))
        }
        return keys
    }

    /// The fields of `items`, the children of an `ilst` at `depth`, within `limits`; `keys` names the items of
    /// QuickTime metadata, nil for iTunes items.
    static func fields(_ items: [MP4Box], in bytes: UnsafeRawBufferPointer, depth: Int, keys: [String]?,
                       limits: MetadataLimits) throws(MP4Invalid) -> [RawTagField] {
        var kept = KeptFields()
        for item in items {
            let children = try MP4Box.children(of: item.content, in: bytes, depth: depth + 1)
            guard let key = self.key(of: item, children: children, in: bytes, keys: keys) else { continue }
            for data in children where data.type == "data" && data.content.count >= 8 {
                let type = bytes.bigEndianUInt32(at: data.content.lowerBound) & 0xFF_FFFF
                let value = UnsafeRawBufferPointer(rebasing: bytes[data.content.lowerBound + 8..<data.content.upperBound])
                let decoded = Self.value(of: key, type: DataType(rawValue: type), value, limits: limits,
                                         keptSoFar: kept.byteCount)
                kept.record(RawTagField(key: key, value: decoded), limits: limits)
            }
        }
        return merged(kept.fields)
    }

    /// An item's raw key: its code as text, the key it indexes, or `----:MEAN:NAME`.
    private static func key(of item: MP4Box, children: [MP4Box], in bytes: UnsafeRawBufferPointer,
                            keys: [String]?) -> String? {
        let code = bytes.bigEndianUInt32(at: item.start + 4)
        if let keys {
            return code >= 1 && Int(code) <= keys.count ? keys[Int(code) - 1] : nil
        }
        guard code == FourCharCode("----").rawValue else { return latin1(bytes[item.start + 4..<item.start + 8]) }
        // mean and name are full boxes holding text.
        func text(_ type: FourCharCode) -> String? {
            guard let box = children.first(where: { $0.type == type }), box.content.count >= 4 else { return nil }
            return String(decoding: bytes[box.content.lowerBound + 4..<box.content.upperBound], as: UTF8.self)
        }
        guard let mean = text("mean"), let name = text("name") else { return nil }
        return "----:\(mean):\(name)"
    }

    /// The value of a `data` box of `key`.
    private static func value(of key: String, type: DataType?, _ value: UnsafeRawBufferPointer, limits: MetadataLimits,
                              keptSoFar: Int) -> RawTagValue {
        switch (key, type) {
        case (_, .jpeg?), (_, .png?), (_, .bmp?), ("covr", _):
            let mimeType = switch type {
            case .jpeg?: "image/jpeg"
            case .png?: "image/png"
            case .bmp?: "image/bmp"
            default: ImageFormat.mimeType(of: ArraySlice(value.prefix(8)))
            }
            let keeps = value.count <= min(limits.maxArtworkBytes, limits.maxTagBytes - keptSoFar)
            return .picture(Artwork(mimeType: mimeType, pictureType: 3, description: "", size: value.count,
                                    data: keeps ? Array(value) : []))
        case _ where value.count > limits.keepLimit(isPicture: false, keptSoFar: keptSoFar):
            return .binary(size: value.count)
        case ("trkn", .implicit?), ("disk", .implicit?):
            // Two reserved bytes, the number, the count (ignored when 0), perhaps two more reserved bytes.
            guard value.count >= 6 else { return .binary(size: value.count) }
            let number = value.bigEndianUInt16(at: 2), count = value.bigEndianUInt16(at: 4)
            return .text([count == 0 ? "\(number)" : "\(number)/\(count)"])
        case ("gnre", .implicit?):
            guard value.count >= 2, case let number = Int(value.bigEndianUInt16(at: 0)), number >= 1 else {
                return .binary(size: value.count)
            }
            return .text(ID3Genres.resolve(String(number - 1)))
        case (_, .utf8?):
            return .text([String(decoding: value, as: UTF8.self)])
        case (_, .utf16?):
            return .text([String(decoding: stride(from: 0, to: value.count - 1, by: 2).map {
                value.bigEndianUInt16(at: $0) }, as: UTF16.self)])
        case (_, .signed?) where [1, 2, 4, 8].contains(value.count):
            let bits = UInt64(truncatingIfNeeded: value.bigEndianInteger(at: 0, count: value.count))
            let shift = UInt64(64 - 8 * value.count)
            return .text([String(Int64(bitPattern: bits << shift) >> shift)])
        case ("tmpo", .implicit?), ("cpil", .implicit?), (_, .unsigned?):
            guard (1...8).contains(value.count) else { return .binary(size: value.count) }
            return .text([String(UInt64(truncatingIfNeeded: value.bigEndianInteger(at: 0, count: value.count)))])
        default:
            return .binary(size: value.count)
        }
    }

    /// Fields of one key that hold text, made one field of several values, as ID3 frames of several values are.
    private static func merged(_ fields: [RawTagField]) -> [RawTagField] {
        var result: [RawTagField] = []
        for field in fields {
            if case .text(let values) = field.value, let last = result.last, last.key == field.key,
               case .text(let previous) = last.value {
                result[result.count - 1].value = .text(previous + values)
            } else {
                result.append(field)
            }
        }
        return result
    }

    /// Bytes as Latin-1 text, so that iTunes' 0xA9 reads `©`.
    static func latin1(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
