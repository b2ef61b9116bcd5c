/// A `LIST` chunk of type `INFO`: text subchunks (`INAM`, `IART`, `ICMT` …, each a NUL-terminated string) as a
/// tag whose raw keys are the subchunk ids (source `riffInfo`).
///
/// Only the list's own subchunks are read, and only those whose id starts with `I` as every INFO id does: a
/// `LIST` nested inside is skipped like any other subchunk, so nesting costs no depth at all. The body given is
/// what was kept of the chunk (at most `MetadataLimits.maxTagBytes`); a subchunk cut by that limit is left out,
/// a value longer than `maxFieldBytes` is kept as its size.
enum RIFFInfoList {
    /// The tag in `body`, a LIST chunk's body, or nil when it is not an INFO list or holds no text.
    static func metadata(_ body: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        guard body.matches("INFO", at: 0) else { return nil }
        var fields = KeptFields()
        var position = 4
        while position + ChunkLayout.riff.headerLength <= body.count {
            let sub = ChunkHeader(UnsafeRawBufferPointer(rebasing: body[position...]), layout: .riff)
            let start = position + ChunkLayout.riff.headerLength
            guard sub.size <= Int64(body.count - start) else { break }
            let value = UnsafeRawBufferPointer(rebasing: body[start..<start + Int(sub.size)])
            if sub.id.description.hasPrefix("I"),
               let field = ChunkText.field(sub.id, value, size: sub.size, limits: limits) {
                fields.record(field, limits: limits)
            }
            position = start + Int(sub.paddedSize)
        }
        guard !fields.fields.isEmpty else { return nil }
        return Metadata(source: .riffInfo, tags: MetadataNormalizer.tags(from: fields.fields), raw: fields.fields)
    }
}
