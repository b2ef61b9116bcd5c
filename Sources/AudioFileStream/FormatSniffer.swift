/// Picks the reader for a stream from its first bytes, preferring the caller's hint when the bytes agree.
struct FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let signatureLength = 12
    /// How far past a leading tag the sniffer looks for a chain of frames; beyond it, the hinted format or
    /// MPEG audio is assumed.
    static let searchLength = 64 * 1024
    /// The largest leading ID3v2 tag looked past: a bigger one is not held just to sniff what follows it.
    static let largestLeadingTag = 1 << 20
    /// Headers in a row that identify a sync-word format: one can be chance, three in a row hardly.
    static let chainLength = 3

    /// A sync-word format: the file types it reads, how to find a chain of its headers, and its reader.
    private struct SyncFormatEntry {
        let fileTypes: Set<AudioFileType>
        let chain: (UnsafeRawBufferPointer, Int, Bool) -> ChainSearch
        let reader: (MetadataLimits) -> any FormatReader

        init<Format: SyncFormat>(_ format: Format, fileTypes: Set<AudioFileType>) {
            self.fileTypes = fileTypes
            chain = { FormatSniffer.chain(of: format, in: $0, at: $1, isEndOfInput: $2) }
            reader = { SyncFrameReader(format, limits: $0) }
        }
    }

    /// Every sync-word format; MPEG audio last, as the default for a stream without a chain.
    private static var syncFormats: [SyncFormatEntry] {[
        SyncFormatEntry(ADTSFormat(), fileTypes: [.adts]),
        SyncFormatEntry(AC3Format(), fileTypes: [.ac3, .eac3]),
        SyncFormatEntry(MPEGAudioFormat(), fileTypes: [.mp1, .mp2, .mp3]),
    ]}

    private let formats = syncFormats

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
        guard let entry = Self.syncFormats.first(where: { $0.fileTypes.contains(hint) }) else {
            throw AudioFileStreamError.unsupportedFileType
        }
        hinted = entry
    }

    /// The reader for a stream starting with `bytes`, or nil while more bytes are needed to decide. Containers
    /// it cannot read yet are refused by their signatures. Sync-word formats are told apart by the first chain
    /// of `chainLength` headers past a leading ID3v2 tag (ADTS and MPEG audio share a sync word; their layer
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
        let fallback = (hinted ?? formats[formats.count - 1]).reader(limits)
        let start = ID3v2Header(bytes).map { ID3v2Header.length + $0.size + ($0.hasFooter ? 10 : 0) } ?? 0
        guard start <= Self.largestLeadingTag else { return fallback }
        resumePosition = max(resumePosition, start)
        while resumePosition < min(bytes.count, start + Self.searchLength) {
            var waits = false
            for entry in formats {
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

    fileprivate enum ChainSearch {
        case found
        case none
        case needMore
    }

    /// Whether `chainLength` compatible headers of `format`, each where the last one's length says, start at
    /// `position`; a chain cut by the end of the input counts.
    fileprivate static func chain<Format: SyncFormat>(of format: Format, in bytes: UnsafeRawBufferPointer,
                                                  at position: Int, isEndOfInput: Bool) -> ChainSearch {
        guard position + Format.headerLength <= bytes.count else { return isEndOfInput ? .none : .needMore }
        guard let first = format.header(in: bytes, at: position) else { return .none }
        var previous = first
        var next = position
        for link in 1..<Self.chainLength {
            switch format.frameLength(of: previous) {
            case .exact(let length): next += length
            case .invalid: return .none
            case .untilNextFrame(let minimum, let maximum, _):
                guard let following = format.nextHeader(compatibleWith: previous, in: bytes, from: next + minimum,
                                                        through: next + maximum) else {
                    return next + maximum + Format.headerLength > bytes.count && !isEndOfInput ? .needMore : .none
                }
                next = following
            }
            guard next + Format.headerLength <= bytes.count else {
                return isEndOfInput ? (link > 1 ? .found : .none) : .needMore
            }
            guard let following = format.header(in: bytes, at: next), format.isCompatible(following, with: previous)
            else { return .none }
            previous = following
        }
        return .found
    }
}
