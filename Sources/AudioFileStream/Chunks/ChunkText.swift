/// The text chunks of RIFF INFO lists and AIFF (`INAM`, `NAME`, `ANNO` …): a string filling the chunk, which
/// RIFF ends with a NUL and AIFF does not.
enum ChunkText {
    /// The value of a chunk of `size` bytes, whose first ones are `value`, under its id, or nil when empty: the
    /// text up to its first NUL, as UTF-8 (what current writers put) or, where that is not valid, Latin-1 (what
    /// older ones did); the size alone when the chunk exceeds `maxFieldBytes`.
    static func field(_ id: FourCharCode, _ value: UnsafeRawBufferPointer, size: Int64,
                      limits: MetadataLimits) -> RawTagField? {
        guard size <= Int64(limits.maxFieldBytes) else {
            return RawTagField(key: id.description, value: .binary(size: Int(clamping: size)))
        }
        let text = value.prefix { $0 != 0 }
        guard !text.isEmpty else { return nil }
        let decoded = String(validating: text, as: UTF8.self) ?? TextEncoding.latin1.decode(ArraySlice(text))
        return RawTagField(key: id.description, value: .text([decoded]))
    }
}
