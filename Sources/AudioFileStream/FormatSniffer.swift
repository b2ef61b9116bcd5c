/// Picks the reader for a stream from its first bytes, preferring the caller's hint when the bytes agree.
struct FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let signatureLength = 12
    /// How far past a leading tag the sniffer looks for a chain of frames; beyond it, the hinted format or
    /// MPEG audio is assumed.
    static let searchLength = 64 * 1024
    /// The largest leading ID3v2 tag looked past: a bigger one is not held just to sniff what follows it.
    static let largestLeadingTag = 1 << 20

    /// The sync format the caller's hint names, taken when the bytes agree or do not tell.
    private let hinted: SyncFormatEntry?
    /// The container the caller's hint names, read when no signature or chain says otherwise.
    private let hintedContainer: ContainerEntry?
    /// The first position not yet ruled out as the start of a chain, so each byte is looked at once however
    /// the stream is chunked.
    private var resumePosition = 0

    /// A sniffer preferring `hint`.
    /// - Throws: `AudioFileStreamError.unsupportedFileType` when the hinted type is not supported.
    init(hint: AudioFileType?) throws {
        hinted = hint.flatMap { hint in SyncFormatEntry.all.first { $0.fileTypes.contains(hint) } }
        hintedContainer = hint.flatMap { hint in ContainerEntry.all.first { $0.fileType == hint && $0.reader != nil } }
        if hint != nil && hinted == nil && hintedContainer == nil { throw AudioFileStreamError.unsupportedFileType }
    }

    /// The reader for a stream starting with `bytes`, or nil while more bytes are needed to decide. Containers
    /// are known by their signatures (`ContainerEntry`); one without a reader is refused, and a hinted container
    /// without its signature is read by its reader, which looks for its structures past junk; a container that
    /// may follow an ID3v2 tag (FLAC) is known by its signature past a leading one. Sync-word formats are told apart by the first chain
    /// of `SyncFormatEntry.chainLength` headers past a leading ID3v2 tag (ADTS and MPEG audio share a sync word; their layer
    /// bits differ; AC-3 and E-AC-3 start 0x0B77), never by one header but for a frame that is all the input (past the
    /// tag): a mislabelled stream is read as what it is. Without a chain, the
    /// hinted format is assumed, or MPEG audio, whose reader skips junk.
    mutating func reader(sniffing bytes: UnsafeRawBufferPointer, isEndOfInput: Bool,
                         limits: MetadataLimits) throws -> (any FormatReader)? {
        guard bytes.count >= Self.signatureLength || isEndOfInput else { return nil }
        if let container = ContainerEntry.all.first(where: { $0.matches(bytes) }) {
            guard let reader = container.reader else { throw AudioFileStreamError.unsupportedFileType }
            return reader(limits)
        }
        let start = ID3v2Header(bytes).map { ID3v2Header.length + $0.size + ($0.hasFooter ? 10 : 0) } ?? 0
        if start > 0, start <= Self.largestLeadingTag {
            guard bytes.count >= start + Self.signatureLength || isEndOfInput else { return nil }
            let afterTag = UnsafeRawBufferPointer(rebasing: bytes[min(start, bytes.count)...])
            if let container = ContainerEntry.all.first(where: { $0.readsLeadingTag && $0.matches(afterTag) }),
               let reader = container.reader {
                return reader(limits)
            }
        }
        if let hintedContainer, let reader = hintedContainer.reader { return reader(limits) }
        let fallback = (hinted ?? SyncFormatEntry.all[SyncFormatEntry.all.count - 1]).reader(limits)
        guard start <= Self.largestLeadingTag else { return fallback }
        resumePosition = max(resumePosition, start)
        while resumePosition < min(bytes.count, start + Self.searchLength) {
            var waits = false
            let end: SyncFormatEntry.InputEnd = !isEndOfInput ? .open
                : resumePosition == start ? .reachedFromStart : .reached
            for entry in SyncFormatEntry.all {
                switch entry.chain(bytes, resumePosition, end) {
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
