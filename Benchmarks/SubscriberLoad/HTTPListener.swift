import AudioStreamProtocol

/// One Icecast listener: an HTTP GET on the mount, then the stream's bytes, counted into whole frames; with ICY
/// metadata asked for, the metadata blocks are taken out before the bytes are counted.
///
/// A listener joins at the live edge, wherever that is when the relay adds it; it finds where by looking its
/// first bytes up in the feed, then checks every byte it receives against the feed from there on.
final class HTTPListener: Receiver {
    private enum State {
        /// The response header read so far, until its blank line has arrived.
        case awaitingHeader([UInt8])
        /// The first stream bytes, until there are enough to find them in the feed.
        case locating([UInt8])
        /// Counting stream bytes: the feed offset just past the last one received.
        case streaming(end: Int)
        /// The response was not a 200, or the stream is not the feed.
        case refused
    }

    let descriptor: Int32
    private let id: Int
    private let log: DeliveryLog
    private var state = State.awaitingHeader([])
    private var nextFrame = 0
    /// Set once the answer says how often metadata comes, when it was asked for: takes the blocks out.
    private var metadata: ICYDemuxer?
    private let asksForMetadata: Bool
    private(set) var tally = ReceiverTally()

    /// The longest response header accepted.
    private static let headerLimit = 16384
    /// Stream bytes looked up in the feed to find where the listener joined: enough to be found only once.
    private static let fingerprintSize = 512

    /// Connects to Icecast on the loopback `port` and asks for `mount`, with ICY metadata when `icyMetadata`.
    init(port: Int, mount: String, id: Int, log: DeliveryLog, icyMetadata: Bool = false) throws {
        descriptor = try Socket.connect(loopbackPort: port)
        self.id = id
        self.log = log
        asksForMetadata = icyMetadata
        let metadataLine = icyMetadata ? "Icy-MetaData: 1\r\n" : ""
        try Socket.writeAll(descriptor, Array(
            "GET \(mount) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\(metadataLine)\r\n".utf8))
    }

    func take(_ bytes: UnsafeRawBufferPointer, at time: UInt64) {
        // Set once the header is read, which takes the metadata out of the bytes that came with it.
        guard metadata != nil else { return takeAnswer(bytes, at: time) }
        Self.audio(of: bytes, demuxer: &metadata!).withUnsafeBytes { takeAnswer($0, at: time) }
    }

    /// The audio of the stream bytes `bytes`, the metadata blocks taken out.
    private static func audio(of bytes: UnsafeRawBufferPointer, demuxer: inout ICYDemuxer) -> [UInt8] {
        var audio: [UInt8] = []
        demuxer.split(bytes, audio: { audio += $0 }, metadata: { _ in })
        return audio
    }

    /// Takes bytes of the answer: its header, then audio with any metadata taken out.
    private func takeAnswer(_ bytes: UnsafeRawBufferPointer, at time: UInt64) {
        switch state {
        case .awaitingHeader(var header):
            header += bytes
            state = response(header, at: time)
        case .locating(var first):
            first += bytes
            state = locate(first, at: time)
        case .streaming(let end):
            state = .streaming(end: stream(bytes, from: end, at: time))
        case .refused:
            break
        }
    }

    func closed(at time: UInt64) {
        tally.closedAt = time
    }

    /// The state after `header` bytes: still waiting, refused, or locating what followed the header.
    private func response(_ header: [UInt8], at time: UInt64) -> State {
        guard let blankLine = header.firstRange(of: [13, 10, 13, 10]) else {
            guard header.count <= Self.headerLimit else { return refuse("no end to the response header") }
            return .awaitingHeader(header)
        }
        guard LoopbackHTTP.code(in: header) == 200 else { return refuse(LoopbackHTTP.statusLine(of: header)) }
        let body = Array(header[blankLine.upperBound...])
        guard asksForMetadata else { return locate(body, at: time) }
        guard let interval = LoopbackHTTP.headerValue("icy-metaint", in: header).flatMap({ Int($0) }), interval > 0
        else { return refuse("no icy-metaint in the answer to Icy-MetaData: 1") }
        var demuxer = ICYDemuxer(metaint: interval)
        let audio = body.withUnsafeBytes { Self.audio(of: $0, demuxer: &demuxer) }
        metadata = demuxer
        return locate(audio, at: time)
    }

    /// The state after the first stream bytes: still too few to look up, refused, or streaming from where they are.
    private func locate(_ first: [UInt8], at time: UInt64) -> State {
        guard first.count >= Self.fingerprintSize else { return .locating(first) }
        guard let start = log.feed.bytes.firstRange(of: first.prefix(Self.fingerprintSize))?.lowerBound else {
            return refuse("the stream's first bytes are nowhere in the feed")
        }
        nextFrame = log.feed.offsets.firstIndex { $0 >= start } ?? log.feed.count
        return .streaming(end: first.withUnsafeBytes { stream($0, from: start, at: time) })
    }

    private func refuse(_ reason: String) -> State {
        tally.refusal = reason
        return .refused
    }

    /// Checks stream bytes against the feed at `offset` and receives each frame they complete; returns the offset
    /// just past them.
    private func stream(_ bytes: UnsafeRawBufferPointer, from offset: Int, at time: UInt64) -> Int {
        if !log.feed.matches(bytes, at: offset) { tally.mismatches += 1 }
        let end = offset + bytes.count
        while nextFrame < log.feed.count && log.feed.ends[nextFrame] <= end {
            log.received(frame: nextFrame, by: id, at: time)
            nextFrame += 1
        }
        return end
    }
}
