/// Reads one tag (ID3v2, ID3v1 or APEv2) incrementally. It is fed the tag's bytes from its first byte, header
/// included, in any chunking; it keeps at most what `MetadataLimits` allow and skips the rest as it streams
/// past, so a tag claiming 256 MB is never buffered.
struct TagReader {
    private enum Format {
        case id3v2(ID3v2Reader)
        case apev2(APEv2Reader)
        /// ID3v1 is small and fixed-size: kept whole, read at the end.
        case id3v1(FieldBuffer)
        /// Consumed without reading: an APEv2 footer whose items went past before it.
        case skipped
        /// Consumed without reading: an enhanced ID3v1 (`TAG+`) block, which precedes a plain ID3v1 tag that is
        /// read on its own.
        case enhancedID3v1
    }

    /// A tag format's magic and the header length needed to decide whether it is there.
    private static let signatures: [(magic: StaticString, headerLength: Int)] = [
        ("ID3", ID3v2Header.length),
        // `TAG` or `TAG+`: the fourth byte tells.
        ("TAG", 4),
        ("APETAGEX", APEv2Header.length),
    ]

    /// The length of an enhanced ID3v1 block (`TAG+`).
    private static let enhancedID3v1Length = 227

    private var format: Format
    private let wholeSize: Int
    private var consumedBytes = 0

    private init(_ format: Format, wholeSize: Int) {
        self.format = format
        self.wholeSize = wholeSize
    }

    /// Whether a tag starts at `bytes[0]`. A tag is reported only from a plausible header (an ID3v2 header
    /// with a known version and a syncsafe size, an APEv2 header or footer of a known version, `TAG`), so that
    /// junk starting with the same letters is left to the caller's resync. `isEndOfInput` says no bytes follow
    /// `bytes`, which settles whether `TAG+` opens an enhanced tag or an ID3v1 title starting with "+".
    static func detect(_ bytes: UnsafeRawBufferPointer, limits: MetadataLimits, isEndOfInput: Bool) -> TagDetection {
        // An enhanced tag is always followed by a plain one; only the bytes after it can tell.
        let enhancedDecisionLength = enhancedID3v1Length + 3
        if bytes.matches("TAG+", at: 0), bytes.count < enhancedDecisionLength, !isEndOfInput {
            return .needMoreData(enhancedDecisionLength)
        }
        var needed: Int?
        for (magic, headerLength) in signatures where begins(bytes, like: magic) {
            guard bytes.count >= headerLength else {
                needed = min(needed ?? headerLength, headerLength)
                continue
            }
            return reader(at: bytes, limits: limits).map(TagDetection.tag) ?? .notATag
        }
        return needed.map(TagDetection.needMoreData) ?? .notATag
    }

    /// True when `bytes` begin like `magic`, as far as either goes.
    private static func begins(_ bytes: UnsafeRawBufferPointer, like magic: StaticString) -> Bool {
        magic.withUTF8Buffer { pattern in zip(bytes, pattern).allSatisfy { $0 == $1 } }
    }

    /// The reader for the tag whose magic and header are at the start of `bytes`, or nil when the header is
    /// not plausible.
    private static func reader(at bytes: UnsafeRawBufferPointer, limits: MetadataLimits) -> TagReader? {
        if let header = ID3v2Header(bytes) {
            return TagReader(.id3v2(ID3v2Reader(header: header, limits: limits)), wholeSize: header.wholeSize)
        }
        if let header = APEv2Header(bytes) {
            let format = header.isHeader ? Format.apev2(APEv2Reader(header: header, limits: limits)) : .skipped
            return TagReader(format, wholeSize: header.wholeSize)
        }
        if bytes.matches("TAG+", at: 0) && bytes.matches("TAG", at: enhancedID3v1Length) {
            return TagReader(.enhancedID3v1, wholeSize: enhancedID3v1Length)
        }
        if bytes.matches("TAG", at: 0) {
            return TagReader(.id3v1(FieldBuffer(limit: ID3v1Tag.length)), wholeSize: ID3v1Tag.length)
        }
        return nil
    }

    /// True for an ID3v1 tag and the enhanced block before one: `TAG` and bytes of anything, which text in
    /// other data holds often; the other tags have headers to check.
    var isUnchecked: Bool {
        switch format {
        case .id3v1, .enhancedID3v1: true
        case .id3v2, .apev2, .skipped: false
        }
    }

    /// Bytes of the tag not yet consumed; the whole tag's size is known from its header.
    var remainingBytes: Int { wholeSize - consumedBytes }

    /// The bytes the reader holds; never more than `MetadataLimits` allow, whatever the tag claims.
    var keptByteCount: Int {
        switch format {
        case .id3v2(let reader): reader.keptByteCount
        case .apev2(let reader): reader.keptByteCount
        case .id3v1(let bytes): bytes.kept.count
        case .skipped, .enhancedID3v1: 0
        }
    }

    /// Takes the tag's next bytes from the start of `bytes`, at most `remainingBytes`; returns how many it took.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(bytes.count, remainingBytes)
        let tagBytes = UnsafeRawBufferPointer(rebasing: bytes.prefix(taken))
        let offset = consumedBytes
        consumedBytes += taken
        switch format {
        case .id3v2(var reader):
            // Moved out of `format` while it reads, so that its buffers are not copied.
            format = .skipped
            reader.consume(tagBytes, at: offset)
            format = .id3v2(reader)
        case .apev2(var reader):
            format = .skipped
            reader.consume(tagBytes, at: offset)
            format = .apev2(reader)
        case .id3v1(var buffer):
            format = .skipped
            buffer.append(tagBytes)
            format = .id3v1(buffer)
        case .skipped, .enhancedID3v1:
            break
        }
        return taken
    }

    /// The tag, or nil when nothing readable was in it. Called once `remainingBytes` is 0, or earlier for a tag
    /// cut short (the input ended or broke off inside it): then it holds the fields read whole before the cut,
    /// the one the cut falls in being dropped, and an ID3v1 tag holds none.
    func finish() -> Metadata? {
        let source: MetadataFormat
        let fields: [RawTagField]
        switch format {
        case .id3v2(let reader): (source, fields) = (reader.header.source, reader.fields)
        case .apev2(let reader): (source, fields) = (.apev2, reader.fields)
        case .id3v1(let buffer) where buffer.isFull:
            let tag = ID3v1Tag(buffer.kept)
            (source, fields) = (.id3v1, tag.fields)
        case .id3v1, .skipped, .enhancedID3v1: return nil
        }
        guard !fields.isEmpty else { return nil }
        return Metadata(source: source, tags: MetadataNormalizer.tags(from: fields), raw: fields)
    }
}
