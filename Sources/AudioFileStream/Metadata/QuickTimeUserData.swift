/// QuickTime user data (`moov/udta`, QuickTime File Format "User data atoms"): atoms whose code starts with
/// © (0xA9) hold text items, each a 16-bit size, a 16-bit language code, then the text. Codes below 0x400 are
/// Macintosh language codes, whose text is Mac Roman, read here as Latin-1 (the two agree on ASCII, which is
/// what such old files hold in practice); others are packed ISO 639 codes, whose text is UTF-8. Raw keys are
/// the codes as text (`©nam`).
enum QuickTimeUserData {
    /// The text fields of the user data atoms `boxes`, within `limits`; other atoms are left out.
    static func fields(_ boxes: [MP4Box], in bytes: UnsafeRawBufferPointer, limits: MetadataLimits) -> [RawTagField] {
        var kept = KeptFields()
        for box in boxes where bytes[box.start + 4] == 0xA9 {
            let key = ITunesMetadata.latin1(bytes[box.start + 4..<box.start + 8])
            var values: [String] = []
            var position = box.content.lowerBound
            while position + 4 <= box.content.upperBound {
                let size = Int(bytes.bigEndianUInt16(at: position))
                let language = bytes.bigEndianUInt16(at: position + 2)
                let start = position + 4
                guard size <= box.content.upperBound - start else { break }
                let text = bytes[start..<start + size]
                values.append(language < 0x400 ? ITunesMetadata.latin1(text) : String(decoding: text, as: UTF8.self))
                position = start + size
            }
            guard !values.isEmpty else { continue }
            let size = values.reduce(0) { $0 + $1.utf8.count }
            let value: RawTagValue = size <= limits.keepLimit(isPicture: false, keptSoFar: kept.byteCount)
                ? .text(values) : .binary(size: size)
            kept.record(RawTagField(key: key, value: value), limits: limits)
        }
        return kept.fields
    }
}
