/// A Vorbis comment block (Vorbis I specification §5.2.1): the vendor string, then `KEY=value` fields, every
/// length a little-endian 32-bit count. Ogg Vorbis, OpusTags and FLAC's VORBIS_COMMENT block carry it; callers
/// strip what precedes it (`\u{3}vorbis`, `OpusTags`, the FLAC block header) and the Vorbis framing bit after it.
package enum VorbisComment {
    /// The key whose value is a base64-encoded FLAC PICTURE block (the Xiph convention for artwork in Ogg).
    static let pictureKey = "METADATA_BLOCK_PICTURE"

    /// The comments of `block`, or nil when it is malformed: a length past the end, or more fields than the
    /// block has room for. Fields are kept as written, in order (a repeated key gives several fields), each
    /// `.text([value])`, within `limits` like any tag's; a field without `=` is left out; a
    /// METADATA_BLOCK_PICTURE field becomes `.picture`; the vendor string is not a field. nil too when no field
    /// is kept.
    static func metadata(_ block: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        guard let layout = Layout(block) else { return nil }
        var kept = KeptFields()
        for field in layout.fields {
            if let value = Self.field(field, limits: limits, keptSoFar: kept.byteCount) {
                kept.record(value, limits: limits)
            }
        }
        guard !kept.fields.isEmpty else { return nil }
        return Metadata(source: .vorbisComment, tags: MetadataNormalizer.tags(from: kept.fields), raw: kept.fields)
    }

    /// One `KEY=value` field: text when it fits `limits.maxFieldBytes`, its size otherwise; a picture by
    /// `FLACPicture`'s rules.
    private static func field(_ bytes: UnsafeRawBufferPointer, limits: MetadataLimits, keptSoFar: Int)
        -> RawTagField? {
        guard let separator = bytes.firstIndex(of: UInt8(ascii: "=")), separator > 0 else { return nil }
        let key = String(decoding: bytes[..<separator], as: UTF8.self)
        let value = UnsafeRawBufferPointer(rebasing: bytes[(separator + 1)...])
        if key.uppercased() == pictureKey {
            let keepLimit = limits.keepLimit(isPicture: true, keptSoFar: keptSoFar)
            guard value.count / 4 * 3 <= keepLimit, let block = Base64.decode(value),
                  let artwork = block.withUnsafeBytes({ FLACPicture.artwork($0, blockLength: $0.count, limits: limits) })
            else { return RawTagField(key: key, value: .binary(size: value.count)) }
            return RawTagField(key: key, value: .picture(artwork))
        }
        guard value.count <= limits.keepLimit(isPicture: false, keptSoFar: keptSoFar) else {
            return RawTagField(key: key, value: .binary(size: value.count))
        }
        return RawTagField(key: key, value: .text([String(decoding: value, as: UTF8.self)]))
    }
}

extension VorbisComment {
    /// Where a block's parts lie: read once for the parser and the tag editor, so that a block one refuses the
    /// other refuses for the same reason.
    package struct Layout {
        /// The vendor string's bytes.
        package let vendor: UnsafeRawBufferPointer
        /// Each field's bytes (`KEY=value`, unchecked).
        package let fields: [UnsafeRawBufferPointer]
        /// Where the fields end in the block: what follows is not the comments' (Vorbis' framing bit, Opus'
        /// binary data).
        package let end: Int

        /// The layout of `block`, or nil when a length runs past its end or the count states more fields than
        /// the block has room for.
        package init?(_ block: UnsafeRawBufferPointer) {
            var reader = LengthPrefixedReader(block)
            guard let vendor = reader.field(), let count = reader.littleEndianUInt32() else { return nil }
            // Each field takes at least its 4 length bytes: a count beyond that is a lie, refused before any work.
            guard Int(count) <= reader.remaining / 4 else { return nil }
            var fields: [UnsafeRawBufferPointer] = []
            fields.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let field = reader.field() else { return nil }
                fields.append(field)
            }
            self.vendor = vendor
            self.fields = fields
            end = block.count - reader.remaining
        }
    }
}

/// Reads the little-endian lengths and length-prefixed strings of a Vorbis comment block, never past its end.
private struct LengthPrefixedReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - position }

    mutating func littleEndianUInt32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return bytes.littleEndianUInt32(at: position)
    }

    /// The next length-prefixed string's bytes, or nil when its length runs past the end.
    mutating func field() -> UnsafeRawBufferPointer? {
        guard let length = littleEndianUInt32(), Int(length) <= remaining else { return nil }
        defer { position += Int(length) }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(length)])
    }
}
