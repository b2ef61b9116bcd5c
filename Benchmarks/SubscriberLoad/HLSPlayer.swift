import Glibc

/// One Low-Latency HLS player on one kept-alive connection, as RFC 8216bis §6.3 has it play a live stream: it
/// asks for the playlist, waits for its next part with a blocking playlist reload (`_HLS_msn`, `_HLS_part`),
/// starts `PART-HOLD-BACK` from the end of that answer, fetches each part in turn, and waits for the next the same
/// way.
///
/// Times are when the kernel took the bytes in for it (`ReceiveTimes`). It plays in real time from the moment its
/// first part is in: a frame is heard when its turn comes, or when it
/// arrives if that is later (a stall, after which it plays on from there). What it hears goes to the log as the
/// frame's receipt, so the log's relay latency is listener-to-player latency. Each part's bytes must be the feed's
/// frames (after a segment's leading ID3 tag), which also tells where the next part starts.
final class HLSPlayer: Receiver {
    let descriptor: Int32
    private let id: Int
    private let log: DeliveryLog
    private let port: Int
    private let playlistPath: String
    private let partFolder: String
    private var reader = HTTPAnswerReader()
    private var asked: Asked?
    /// Parts listed and not fetched yet, oldest first.
    private var queue: [String] = []
    private var lastQueued: String?
    /// The segment and part the next blocking reload waits for.
    private var next: (msn: Int, part: Int)?
    /// The feed frame the next part fetched starts with.
    private var nextFrame = 0
    /// Frame `frame` plays at `time`; the next at `time` plus a frame's duration, and so on.
    private var playback: (frame: Int, time: UInt64)?
    /// A blocking reload delivered at `time` and read at `readTime`, for `part`: timed against its last frame once
    /// the part is in.
    private var awaitedPart: (uri: String, time: UInt64, readTime: UInt64)?
    private let availability: HLSAvailability
    private(set) var tally = ReceiverTally()
    private(set) var stalls = 0
    let isStampedByKernel = true

    private enum Asked {
        case playlist
        case part(String)
    }

    /// Connects to the daemon on the loopback `port`; asks nothing until `start`.
    init(port: Int, stream: String, id: Int, log: DeliveryLog, availability: HLSAvailability) throws {
        descriptor = try Socket.connect(loopbackPort: port)
        try ReceiveTimes.enable(on: descriptor)
        self.id = id
        self.log = log
        self.port = port
        playlistPath = "/hls/\(stream)/live.m3u8"
        partFolder = "/hls/\(stream)/"
        self.availability = availability
    }

    /// Asks for the playlist, where playing starts.
    func start() {
        ask(playlistPath, .playlist)
    }

    func take(_ bytes: UnsafeRawBufferPointer, at time: UInt64) {
        guard tally.refusal == nil, let asked else { return }
        do {
            guard let answer = try reader.take(bytes) else { return }
            guard answer.status == 200 else { return refuse(answer.statusLine) }
            self.asked = nil
            switch asked {
            case .playlist: try playlist(answer.body, at: time)
            case .part(let uri): try part(uri, answer.body, at: time)
            }
            if let uri = queue.first {
                queue.removeFirst()
                ask(partFolder + uri, .part(uri))
            } else if let next {
                // Delta updates once playing, as CAN-SKIP-UNTIL offers them.
                let skip = lastQueued != nil ? "&_HLS_skip=YES" : ""
                ask(playlistPath + "?_HLS_msn=\(next.msn)&_HLS_part=\(next.part)" + skip, .playlist)
            }
        } catch {
            refuse("\(error)")
        }
    }

    func closed(at time: UInt64) {
        tally.closedAt = time
    }

    private func playlist(_ body: ArraySlice<UInt8>, at time: UInt64) throws {
        let view = try HLSPlaylistView(body)
        let listed = view.parts.map(\.uri)
        if let lastQueued {
            guard let index = listed.firstIndex(of: lastQueued) else {
                throw LoadError("\(lastQueued) left the playlist before it was fetched")
            }
            let new = listed[(index + 1)...]
            // A blocking reload is answered once the part after the last one listed is, or the stream ended.
            if let awaited = new.first {
                awaitedPart = (awaited, time, MonotonicClock.now)
            } else if !view.isEnded {
                throw LoadError("a reload answered with no new part")
            }
            queue += new
        } else if next == nil {
            // The first playlist: its end may be up to a part old. Playing starts from the answer to a blocking
            // reload, whose end is as new as can be.
            next = view.next
            return
        } else {
            // Joining: the parts from PART-HOLD-BACK before the end, counted in frames from the first segment.
            guard view.mediaSequence == 0, let first = view.startingPart else {
                throw LoadError("joined a playlist that no longer starts at the stream's start, or has no part")
            }
            nextFrame = Int((view.parts[first].start / log.feed.frameSeconds).rounded())
            queue = Array(listed[first...])
        }
        lastQueued = listed.last ?? lastQueued
        next = view.isEnded ? nil : view.next
    }

    private func part(_ uri: String, _ body: ArraySlice<UInt8>, at time: UInt64) throws {
        let audio = body.dropFirst(Self.id3TagSize(body))
        let start = log.feed.offsets[nextFrame]
        var frames = 0
        while nextFrame + frames < log.feed.count && log.feed.ends[nextFrame + frames] <= start + audio.count {
            frames += 1
        }
        let matches = audio.withUnsafeBytes { log.feed.matches($0, at: start) }
        guard frames > 0, matches, log.feed.ends[nextFrame + frames - 1] == start + audio.count else {
            tally.mismatches += 1
            throw LoadError("\(uri) is not whole frames of the feed from frame \(nextFrame)")
        }
        let lastFrame = nextFrame + frames - 1
        if let awaitedPart, awaitedPart.uri == uri {
            availability.note(deliveredAt: awaitedPart.time, readAt: awaitedPart.readTime, lastFrame: lastFrame)
            self.awaitedPart = nil
        }
        let frameNanoseconds = log.feed.frameSeconds * 1e9
        var anchor = playback ?? (nextFrame, time)
        let due = anchor.time + UInt64((Double(nextFrame - anchor.frame) * frameNanoseconds).rounded())
        if time > due {
            stalls += 1
            anchor = (nextFrame, time)
        }
        playback = anchor
        for frame in nextFrame...lastFrame {
            log.received(frame: frame, by: id,
                         at: anchor.time + UInt64((Double(frame - anchor.frame) * frameNanoseconds).rounded()))
        }
        nextFrame = lastFrame + 1
    }

    private func ask(_ path: String, _ what: Asked) {
        asked = what
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: SubscriberLoad/\(id)\r\n\r\n"
        do {
            try Socket.writeAll(descriptor, Array(request.utf8))
        } catch {
            refuse("\(error)")
        }
    }

    private func refuse(_ reason: String) {
        tally.refusal = tally.refusal ?? reason
    }

    /// The size of the ID3v2 tag `bytes` start with (a packed segment's timestamp), or 0.
    private static func id3TagSize(_ bytes: ArraySlice<UInt8>) -> Int {
        guard bytes.count >= 10, bytes.starts(with: [0x49, 0x44, 0x33]) else { return 0 }
        let size = bytes.dropFirst(6).prefix(4).reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        return 10 + size
    }
}
