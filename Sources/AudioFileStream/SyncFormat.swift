/// What a whole, confirmed frame holds.
enum FrameRole {
    /// Packets of the announced format.
    case audio
    /// A description of the stream and no audio (a Xing/Info frame).
    case streamInformation
    /// Audio this parser cannot cut into packets: left out and reported.
    case unsupported
}

/// How long a frame is, as its header tells.
enum FrameLength {
    /// The header states the length.
    case exact(Int)
    /// The frame ends where the next frame of the stream starts (MPEG free format): search for a compatible
    /// header between `minimum` and `maximum` bytes from the frame's start. `expected`, when set, is tried first
    /// and kept while a header follows it; in the chain that confirms a resync, every frame has it.
    case untilNextFrame(minimum: Int, maximum: Int, expected: Int?)
    /// The bytes cannot be a frame after all.
    case invalid
}

/// One format framed by sync words, such as MPEG audio: what a frame header is and what a frame holds.
///
/// `SyncFrameReader` owns everything such formats share: buffering, junk skipping and its reports, resync with a
/// confirming header, tags between frames, discontinuities and the announcing order. A format answers only
/// whether a header starts at a position, how long its frame is, which headers may follow each other, and what
/// a whole, confirmed frame holds.
protocol SyncFormat: Sendable {
    associatedtype Header

    /// Bytes a header occupies, and the least that must follow a frame to confirm it.
    static var headerLength: Int { get }

    /// The fewest bytes a header of variable length may occupy: where the input ends, a header is looked for in
    /// fewer than `headerLength` bytes down to this many (a FLAC stream's last frame may be 9 bytes). The default
    /// is `headerLength`; a format giving less reads no byte past the input in `header(in:at:)`.
    static var shortestHeaderLength: Int { get }

    /// Whether a frame may start with `byte`: a cheap test before `header(in:at:)`.
    static func mayStartFrame(_ byte: UInt8) -> Bool

    /// The header at `position`, which has at least `headerLength` bytes after it (at the end of the input, at
    /// least `shortestHeaderLength`), or nil if there is none.
    func header(in bytes: UnsafeRawBufferPointer, at position: Int) -> Header?

    /// The length of the frame `header` starts.
    func frameLength(of header: Header) -> FrameLength

    /// Whether `next` may follow `header` in one stream; a frame is confirmed by a compatible successor.
    func isCompatible(_ next: Header, with header: Header) -> Bool

    /// Headers that must follow a frame of `header` found after a loss of sync, each where the one before ends,
    /// before the frame is believed: more where chance makes such headers common in other data (small frames).
    func headersConfirmingResync(of header: Header) -> Int

    /// Whether `header` may stand in the chain that confirms a frame found after a loss of sync, which `first`
    /// starts (`first` itself included), with `frame` holding its whole frame, header first, or nil when only
    /// the header is there to tell: beyond compatibility, what real streams hold where a decoder must find them,
    /// such as no reserved or forbidden value and, where the format says so, the encoder's settings of `first`.
    func confirmsResync(_ header: Header, frame: UnsafeRawBufferPointer?, startedBy first: Header) -> Bool

    /// Where the frame of `header` at `position` ends, as far as `bytes` tell. The default follows
    /// `frameLength(of:)`: the stated length, or the first compatible header within the bounds. A format whose
    /// frames end where a check of their own bytes says (FLAC's CRC-16) gives its own.
    func end(ofFrame header: Header, at position: Int, in bytes: UnsafeRawBufferPointer) -> FrameEnd

    /// A `.untilNextFrame` length was measured: the frame of `header` is `length` bytes.
    mutating func measured(_ length: Int, of header: Header)

    /// A whole, confirmed frame: announce the properties it sets or changes (DataFormat before the first packet
    /// of a new format) and say what it holds. The reader announces DataOffset and ReadyToProducePackets after
    /// this, before the first packets.
    mutating func announce(_ header: Header, frame: UnsafeRawBufferPointer, into output: ParserOutput) -> FrameRole

    /// Reports the packets of an audio frame that starts at `position` in the buffer `output` holds.
    func reportPackets(of header: Header, frameLength: Int, at position: Int, into output: ParserOutput)

    /// The bytes that follow do not follow the previous ones: forget what described the stream so far.
    mutating func resetForDiscontinuity()

    /// The input ends (or a run of it, before a discontinuity): announce what was learned and not announced yet.
    /// The default announces nothing.
    mutating func endOfInput(into output: ParserOutput)
}

/// A frame header that decodes itself from the bytes at a position, or finds none there.
protocol SyncFrameHeader {
    init?(bytes: UnsafeRawBufferPointer, at position: Int)
}

extension SyncFormat where Header: SyncFrameHeader {
    /// A header that needs nothing of the format's state is its own decoder.
    @inline(__always)
    func header(in bytes: UnsafeRawBufferPointer, at position: Int) -> Header? {
        Header(bytes: bytes, at: position)
    }
}

/// Where a frame ends, as far as the bytes tell.
enum FrameEnd {
    case at(Int)
    /// It cannot be a frame: its length is invalid, or no next frame lies within its longest length.
    case none
    /// The next frame that ends it is not within the bytes, which would have to reach this position to tell.
    case beyondInput(Int)
}

extension SyncFormat {
    static var shortestHeaderLength: Int { headerLength }

    func endOfInput(into output: ParserOutput) {}

    /// Two, as GStreamer's mpegaudioparse asks: bytes inside other data pass for one header often enough, for
    /// three in a row almost never.
    func headersConfirmingResync(of header: Header) -> Int { 2 }

    func confirmsResync(_ header: Header, frame: UnsafeRawBufferPointer?, startedBy first: Header) -> Bool { true }

    /// Where the frame of `header` at `position` ends: where its length says, or at the next compatible header
    /// (free format).
    func end(ofFrame header: Header, at position: Int, in bytes: UnsafeRawBufferPointer) -> FrameEnd {
        switch frameLength(of: header) {
        case .exact(let length): return .at(position + length)
        case .invalid: return .none
        case .untilNextFrame(let minimum, let maximum, _):
            if let next = nextHeader(compatibleWith: header, in: bytes, from: position + minimum,
                                     through: position + maximum) {
                return .at(next)
            }
            let searchEnd = position + maximum + Self.headerLength
            return searchEnd > bytes.count ? .beyondInput(searchEnd) : .none
        }
    }

    /// The position of the first header compatible with `header` from `first` through `last`, as far as `bytes`
    /// go.
    private func nextHeader(compatibleWith header: Header, in bytes: UnsafeRawBufferPointer, from first: Int,
                            through last: Int) -> Int? {
        var position = first
        while position <= last && position + Self.headerLength <= bytes.count {
            if Self.mayStartFrame(bytes[position]), let candidate = self.header(in: bytes, at: position),
               isCompatible(candidate, with: header) {
                return position
            }
            position += 1
        }
        return nil
    }
}
