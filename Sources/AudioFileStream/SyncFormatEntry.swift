/// A sync-word format as the sniffer and the driver see them all: the file types it reads, how to find a
/// chain of its headers, and its reader. Adding a sync format means adding it to `all`.
struct SyncFormatEntry: Sendable {
    /// Headers in a row that identify a sync-word format: one can be chance, three in a row hardly.
    static let chainLength = 3
    /// The most bytes a chain may need before it can be told: a header in junk that only a longer search could
    /// refute (a false FLAC header claims frames of hundreds of kilobytes) is not one, rather than holding the
    /// stream back while the search goes on.
    static let longestChain = 64 * 1024

    /// Every sync-word format; MPEG audio last, as the default for a stream without a chain.
    static let all = [
        SyncFormatEntry(ADTSFormat(), fileTypes: [.adts]),
        SyncFormatEntry(AC3Format(), fileTypes: [.ac3, .eac3]),
        // A stream joined at a frame, without its `fLaC` header (the container entry reads that one).
        SyncFormatEntry(FLACFormat(), fileTypes: [.flac]),
        SyncFormatEntry(MPEGAudioFormat(), fileTypes: [.mp1, .mp2, .mp3]),
    ]

    /// Where the bytes searched for a chain end.
    enum InputEnd: Equatable {
        /// More bytes may follow.
        case open
        /// The input ends with the bytes.
        case reached
        /// The input ends with the bytes, and the search starts where the input does (or where a leading tag
        /// ends): one frame that fills them all is a chain, as a file of one frame is.
        case reachedFromStart
    }

    /// What a search for a chain of headers at a position found.
    enum ChainSearch: Equatable {
        case found
        case none
        /// This many bytes from the position are needed to tell.
        case needMore(Int)
    }

    let fileTypes: Set<AudioFileType>
    /// Whether `byte` may start a frame of this format.
    let mayStartFrame: @Sendable (UInt8) -> Bool
    /// Whether a chain of `chainLength` headers starts at a position of the bytes, which end as the third says.
    let chain: @Sendable (UnsafeRawBufferPointer, Int, InputEnd) -> ChainSearch
    let reader: @Sendable (MetadataLimits) -> any FormatReader
    private let formatType: ObjectIdentifier

    private init<Format: SyncFormat>(_ format: Format, fileTypes: Set<AudioFileType>) {
        self.fileTypes = fileTypes
        mayStartFrame = { Format.mayStartFrame($0) }
        chain = { Self.chain(of: format, in: $0, at: $1, end: $2) }
        reader = { SyncFrameReader(format, limits: $0) }
        formatType = ObjectIdentifier(Format.self)
    }

    /// True for the entry of `Format`.
    func reads<Format: SyncFormat>(_: Format.Type) -> Bool {
        formatType == ObjectIdentifier(Format.self)
    }

    /// Whether `chainLength` compatible headers of `format`, each where the last one's length says, start at
    /// `position`; a chain cut by the end of the input counts once it has two links, or with one frame that runs
    /// exactly from the start of the input to its end.
    private static func chain<Format: SyncFormat>(of format: Format, in bytes: UnsafeRawBufferPointer,
                                                  at position: Int, end inputEnd: InputEnd) -> ChainSearch {
        let isEndOfInput = inputEnd != .open
        guard position + Format.headerLength <= bytes.count else {
            return isEndOfInput ? .none : .needMore(Format.headerLength)
        }
        guard let first = format.header(in: bytes, at: position) else { return .none }
        var previous = first
        var next = position
        for link in 1..<chainLength {
            switch format.end(ofFrame: previous, at: next, in: bytes) {
            case .at(let end): next = end
            case .none: return .none
            case .beyondInput(let searchEnd):
                return isEndOfInput || searchEnd - position > longestChain ? .none : .needMore(searchEnd - position)
            }
            guard next + Format.headerLength <= bytes.count else {
                if isEndOfInput {
                    return link > 1 || (inputEnd == .reachedFromStart && next == bytes.count) ? .found : .none
                }
                return .needMore(next + Format.headerLength - position)
            }
            guard let following = format.header(in: bytes, at: next), format.isCompatible(following, with: previous)
            else { return .none }
            previous = following
        }
        return .found
    }
}
