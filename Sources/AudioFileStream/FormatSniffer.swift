/// Picks the reader for a stream from the caller's hint or, without one, from the first bytes.
struct FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let signatureLength = 12
    /// How far past a leading tag the sniffer looks for a chain of frames; beyond it, MPEG audio is assumed.
    static let searchLength = 64 * 1024
    /// The largest leading ID3v2 tag looked past: a bigger one is not held just to sniff what follows it.
    static let largestLeadingTag = 1 << 20
    /// Headers in a row that identify a sync-word format: one can be chance, three in a row hardly.
    static let chainLength = 3

    /// The reader for `hint`, or an error when the hinted type is not supported.
    static func reader(for hint: AudioFileType, limits: MetadataLimits) throws -> any FormatReader {
        switch hint {
        case .mp1, .mp2, .mp3: SyncFrameReader(MPEGAudioFormat(), limits: limits)
        case .adts: SyncFrameReader(ADTSFormat(), limits: limits)
        case .ac3, .eac3: SyncFrameReader(AC3Format(), limits: limits)
        default: throw AudioFileStreamError.unsupportedFileType
        }
    }

    /// The first position not yet ruled out as the start of a chain, so each byte is looked at once however
    /// the stream is chunked.
    private var resumePosition = 0

    /// The reader for a stream starting with `bytes`, or nil while more bytes are needed to decide. Containers
    /// it cannot read yet are refused by their signatures. Sync-word formats are told apart by the first chain
    /// of `chainLength` headers past a leading ID3v2 tag (ADTS and MPEG audio share a sync word; their layer
    /// bits differ; AC-3 and E-AC-3 start 0x0B77), never by one header. Without a chain, MPEG audio is assumed: its reader skips junk.
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
        let mpeg = SyncFrameReader(MPEGAudioFormat(), limits: limits)
        let start = ID3v2Header(bytes).map { ID3v2Header.length + $0.size + ($0.hasFooter ? 10 : 0) } ?? 0
        guard start <= Self.largestLeadingTag else { return mpeg }
        resumePosition = max(resumePosition, start)
        while resumePosition < min(bytes.count, start + Self.searchLength) {
            if bytes[resumePosition] == 0xFF {
                let adts = Self.chain(of: ADTSFormat(), in: bytes, at: resumePosition, isEndOfInput: isEndOfInput)
                if adts == .found { return SyncFrameReader(ADTSFormat(), limits: limits) }
                let mpegChain = Self.chain(of: MPEGAudioFormat(), in: bytes, at: resumePosition,
                                           isEndOfInput: isEndOfInput)
                if mpegChain == .found { return mpeg }
                if adts == .needMore || mpegChain == .needMore { return nil }
            } else if AC3Format.mayStartFrame(bytes[resumePosition]) {
                switch Self.chain(of: AC3Format(), in: bytes, at: resumePosition, isEndOfInput: isEndOfInput) {
                case .found: return SyncFrameReader(AC3Format(), limits: limits)
                case .needMore: return nil
                case .none: break
                }
            }
            resumePosition += 1
        }
        return bytes.count < start + Self.searchLength && !isEndOfInput ? nil : mpeg
    }

    private enum ChainSearch {
        case found
        case none
        case needMore
    }

    /// Whether `chainLength` compatible headers of `format`, each where the last one's length says, start at
    /// `position`; a chain cut by the end of the input counts.
    private static func chain<Format: SyncFormat>(of format: Format, in bytes: UnsafeRawBufferPointer,
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
