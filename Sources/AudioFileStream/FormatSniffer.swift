/// Picks the reader for a stream from its first bytes, preferring the caller's hint when the bytes agree.
struct FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let signatureLength = 12
    /// How far past a leading tag the sniffer looks for a chain of frames; beyond it, the hinted format or
    /// MPEG audio is assumed.
    static let searchLength = 64 * 1024
    /// The largest leading ID3v2 tag looked past: a bigger one is not held just to sniff what follows it.
    static let largestLeadingTag = 1 << 20

    /// The format the caller's hint names, taken when the bytes agree or do not tell.
    private let hinted: SyncFormatEntry?
    /// The first position not yet ruled out as the start of a chain, so each byte is looked at once however
    /// the stream is chunked.
    private var resumePosition = 0

    /// A sniffer preferring `hint`.
    /// - Throws: `AudioFileStreamError.unsupportedFileType` when the hinted type is not supported.
    init(hint: AudioFileType?) throws {
        guard let hint else {
            hinted = nil
            return
        }
        guard let entry = SyncFormatEntry.all.first(where: { $0.fileTypes.contains(hint) }) else {
            throw AudioFileStreamError.unsupportedFileType
        }
        hinted = entry
    }

    /// The reader for a stream starting with `bytes`, or nil while more bytes are needed to decide. Containers
    /// it cannot read yet are refused by their signatures. Sync-word formats are told apart by the first chain
    /// of `SyncFormatEntry.chainLength` headers past a leading ID3v2 tag (ADTS and MPEG audio share a sync word; their layer
    /// bits differ; AC-3 and E-AC-3 start 0x0B77), never by one header: a mislabelled stream is read as what it is. Without a chain, the
    /// hinted format is assumed, or MPEG audio, whose reader skips junk.
    mutating func reader(sniffing bytes: UnsafeRawBufferPointer, isEndOfInput: Bool,
                         limits: MetadataLimits) throws -> (any FormatReader)? {
        guard bytes.count >= Self.signatureLength || isEndOfInput else { return nil }
        let signatures: [[UInt8]] = [
            Array("RIFF".utf8), Array("RF64".utf8), Array("FORM".utf8), Array("OggS".utf8), Array("fLaC".utf8),
            Array("caff".utf8),
        ]
        if signatures.contains(where: { bytes.starts(with: $0) }) || bytes.dropFirst(4).starts(with: "ftyp".utf8) {
            throw AudioFileStreamError.unsupportedFileType
        }
        let fallback = (hinted ?? SyncFormatEntry.all[SyncFormatEntry.all.count - 1]).reader(limits)
        let start = ID3v2Header(bytes).map { ID3v2Header.length + $0.size + ($0.hasFooter ? 10 : 0) } ?? 0
        guard start <= Self.largestLeadingTag else { return fallback }
        resumePosition = max(resumePosition, start)
        while resumePosition < min(bytes.count, start + Self.searchLength) {
            var waits = false
            for entry in SyncFormatEntry.all {
                switch entry.chain(bytes, resumePosition, isEndOfInput) {
                case .found: return entry.reader(limits)
                case .needMore: waits = true
                case .none: break
                }
            }
            if waits { return nil }
            resumePosition += 1
        }
        return bytes.count < start + Self.searchLength && !isEndOfInput ? nil : fallback
    }
}
