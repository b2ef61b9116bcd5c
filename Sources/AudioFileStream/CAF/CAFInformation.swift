/// The body of a CAF `info` chunk (CAFStringsChunk): a big-endian 32-bit count of entries, then each entry's
/// key and value, UTF-8 and NUL-terminated. Apple's keys are lower-case words (`title`, `artist`, `year`,
/// `track number`, `encoding application`, …); ffmpeg writes its own metadata names (`date`, `track`, `comment`).
enum CAFInformation {
    /// The entries of `bytes` as `.text` fields under their keys as written, in order, within `limits` like any
    /// tag's (a value above `maxFieldBytes` is kept as its size); nil when no entry is kept. Entries past the
    /// count, or cut by the end of `bytes` (a chunk longer than `maxTagBytes` is kept only so far), are left out.
    static func metadata(_ bytes: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        guard bytes.count >= 4 else { return nil }
        let count = bytes.bigEndianUInt32(at: 0)
        var position = 4
        var kept = KeptFields()
        var entries: UInt32 = 0
        while entries < count, let key = string(in: bytes, at: &position),
              let value = string(in: bytes, at: &position) {
            entries += 1
            guard !key.isEmpty else { continue }
            let name = String(decoding: key, as: UTF8.self)
            let field = value.count <= limits.keepLimit(isPicture: false, keptSoFar: kept.byteCount)
                ? RawTagField(key: name, value: .text([String(decoding: value, as: UTF8.self)]))
                : RawTagField(key: name, value: .binary(size: value.count))
            kept.record(field, limits: limits)
        }
        guard !kept.fields.isEmpty else { return nil }
        return Metadata(source: .cafInfo, tags: MetadataNormalizer.tags(from: kept.fields), raw: kept.fields)
    }

    /// The bytes from `position` to the next NUL, moving past the NUL; nil when there is none.
    private static func string(in bytes: UnsafeRawBufferPointer, at position: inout Int) -> UnsafeRawBufferPointer? {
        guard position < bytes.count,
              let end = bytes[position...].firstIndex(of: 0) else { return nil }
        defer { position = end + 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<end])
    }
}
