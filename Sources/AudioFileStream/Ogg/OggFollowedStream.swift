/// Where an `OggReader` is in the life of the logical stream it follows.
enum OggFollowedStream {
    /// None yet: the first page of a stream of a codec this parser reads is waited for.
    case none
    /// Its header packets are being read.
    case headers(OggLogicalStream)
    /// Its headers were all read: its packets are audio.
    case audio(OggLogicalStream)
    /// Its last page (EOS) went by, or one of its headers was not valid: a new logical stream may begin (a chain).
    case ended(serial: UInt32)

    /// Whether a first page may begin a stream to follow: when none goes on, and after the followed stream's
    /// headers even without its last page (a source that restarted), as multiplexed streams all begin before any
    /// data (RFC 3533).
    var acceptsNewStream: Bool {
        if case .headers = self { false } else { true }
    }

    /// The serial number of the stream followed or last followed.
    var serial: UInt32? {
        switch self {
        case .none: nil
        case .headers(let stream), .audio(let stream): stream.serial
        case .ended(let serial): serial
        }
    }

    /// The stream while it goes on.
    var stream: OggLogicalStream? {
        switch self {
        case .headers(let stream), .audio(let stream): stream
        case .none, .ended: nil
        }
    }

    /// The headers were all read: its packets are audio from here on.
    mutating func startAudio() {
        guard case .headers(let stream) = self else { return }
        self = .audio(stream)
    }

    /// The stream ends here.
    mutating func end() {
        if let stream { self = .ended(serial: stream.serial) }
    }
}
