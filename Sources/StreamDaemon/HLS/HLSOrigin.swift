import AudioFileStream
import AudioHLS
import Logging
import NIOCore

/// A stream's HTTP Live Streaming as the daemon serves it: the segmenter fed the pipeline's events, the files of
/// the window in memory (on a shelf every loop reads), the playlists made once per change, and one wait list for
/// the requests held until a segment or part exists (blocking playlist reload, RFC 8216bis §6.2.5.2, and the
/// preload hint's part).
///
/// A held request costs a promise in the list, on its connection's loop: those a new part answers are handed to
/// each loop in one task, and one scheduled task per stream answers those that waited three target durations
/// with 503. Confined to the stream's event loop.
final class HLSOrigin {
    private let eventLoop: EventLoop
    private let logger: Logger
    private var segmenter: HLSSegmenter?
    private let files: HLSFileShelf
    /// The playlist and its delta update as the list stands; nil until the first part or segment.
    private var playlists: (full: HLSAnswer, delta: HLSAnswer)?
    private var waits: [Wait] = []
    private var expiry: Scheduled<Void>?
    private let folder: HLSFolderWriter?
    /// How long a held request waits: three target durations.
    private let holdLimit: TimeAmount
    /// `Cache-Control` of a playlist: half a part, or half a segment without parts.
    private let playlistCacheControl: String
    private var sessions: HLSSessions

    /// Segments a playlist lists before it is served.
    static let segmentsToStart = 3

    private struct Wait {
        let request: HLSRequest
        let deadline: NIODeadline
        let promise: EventLoopPromise<HLSAnswer>
    }

    init(config: HLSConfig, stream: String, files: HLSFileShelf, eventLoop: EventLoop, logger: Logger) {
        self.eventLoop = eventLoop
        self.files = files
        self.logger = logger
        folder = config.path.map { HLSFolderWriter(path: $0, stream: stream, logger: logger) }
        let settings = config.settings
        holdLimit = .nanoseconds(Int64(3 * settings.segment.rounded(.up) * 1e9))
        let half = (settings.part > 0 ? settings.part : settings.segment) / 2
        playlistCacheControl = "max-age=\(Int(half))"
        sessions = HLSSessions(targetDuration: max(1, Int(settings.segment.rounded(.up))))
        segmenter = HLSSegmenter(settings: settings) { [unowned self] change in published(change) }
    }

    /// Cuts the event into the stream's segments.
    func take(_ event: AudioFileStreamEvent) {
        eventLoop.assertInEventLoop()
        if let error = segmenter?.take(event) { logger.error("HLS stops until the format changes: \(error)") }
    }

    /// What plays changed: the next packet starts a segment that says so.
    func noteNowPlaying(_ nowPlaying: HLSNowPlaying) {
        eventLoop.assertInEventLoop()
        segmenter?.noteNowPlaying(nowPlaying)
    }

    /// The stream ended: the playlist says so, and held requests get it.
    func finish() {
        eventLoop.preconditionInEventLoop()
        try? segmenter?.finish()
    }

    /// What a multivariant playlist says of the stream, once it has a segment.
    func variant(name: String) -> HLSGroupPlaylist.Variant? {
        guard let segmenter, segmenter.peakBitRate > 0, let codecs = segmenter.codecs else { return nil }
        return HLSGroupPlaylist.Variant(name: name, bandwidth: segmenter.peakBitRate, codecs: codecs)
    }

    /// The listeners: the sessions that asked within two target durations.
    func listeners() -> Int {
        eventLoop.preconditionInEventLoop()
        return sessions.count()
    }

    /// Answers `request` of session `session` (`HLSSessions.key`) through `promise`, at once or once the segment
    /// or part it waits for exists; fails it with `HLSRefusal`.
    func answer(_ request: HLSRequest, session: String, promise: EventLoopPromise<HLSAnswer>) {
        eventLoop.preconditionInEventLoop()
        sessions.note(session)
        guard let list = segmenter?.list else { return promise.fail(HLSRefusal.unavailable("no HLS")) }
        switch request {
        case .file(let name):
            // A file of the window, or the part the hint names, which is held until it exists.
            guard files.file(named: name) != nil || name == list.nextPart else {
                return promise.fail(HLSRefusal.notFound("\(name) is not in the window"))
            }
        case .playlist(let msn, _, _):
            let lastSegment = list.completeSegments.last?.sequence ?? list.mediaSequence - 1
            if let msn, msn > lastSegment + 2 {
                return promise.fail(HLSRefusal.badRequest(
                    "_HLS_msn=\(msn) is more than two segments after the last one, \(lastSegment)"))
            }
        }
        if let answer = ready(request) { return promise.succeed(answer) }
        waits.append(Wait(request: request, deadline: .now() + holdLimit, promise: promise))
        if expiry == nil { scheduleExpiry() }
    }

    /// The answer to `request` if what it waits for exists.
    private func ready(_ request: HLSRequest) -> HLSAnswer? {
        guard let list = segmenter?.list else { return nil }
        switch request {
        case .file(let name):
            return files.file(named: name)
        case .playlist(let msn, let part, let skip):
            // A player starts three target durations from the live edge (RFC 8216bis §6.3.3): one given fewer
            // segments may never start (Chromium). The first playlists are held until they list three.
            guard let playlists, list.isEnded || list.completeSegments.count >= Self.segmentsToStart else { return nil }
            guard list.isEnded || msn.map({ Self.lists(list, msn: $0, part: part) }) ?? true else { return nil }
            return skip && list.partTarget != nil ? playlists.delta : playlists.full
        }
    }

    /// Whether `list` holds segment `msn` whole, or its part `part`, or anything after it.
    private static func lists(_ list: HLSMediaList, msn: Int, part: Int?) -> Bool {
        for segment in list.segments.reversed() {
            if segment.sequence > msn, segment.isComplete || !segment.parts.isEmpty { return true }
            if segment.sequence == msn {
                guard let part, list.partTarget != nil else { return segment.isComplete }
                return segment.parts.count > part
            }
        }
        return false
    }

    private func published(_ change: HLSChange) {
        switch change {
        case .initSection(let name, let bytes), .part(let name, let bytes), .segment(let name, let bytes):
            files.put(HLSAnswer(body: ByteBuffer(bytes: bytes), contentType: HLSAnswer.contentType(of: name),
                                cacheControl: HLSAnswer.immutable), named: name)
        case .removed(let names):
            files.remove(names)
        case .ended:
            break
        }
        // A section is listed with the first part that needs it.
        guard let list = segmenter?.list, !Self.isSection(change) else {
            return folder?.take(change, playlist: nil) ?? ()
        }
        let full = HLSPlaylistWriter.media(list)
        let delta = list.partTarget == nil ? full
            : HLSPlaylistWriter.media(list, HLSPlaylistWriter.Request(skipsOldSegments: true))
        playlists = (playlistAnswer(full), playlistAnswer(delta))
        folder?.take(change, playlist: full)
        answerWaits()
    }

    private func playlistAnswer(_ text: String) -> HLSAnswer {
        HLSAnswer(body: ByteBuffer(string: text), contentType: HLSAnswer.contentType(of: HLSRequest.playlistName),
                  cacheControl: playlistCacheControl)
    }

    private static func isSection(_ change: HLSChange) -> Bool {
        if case .initSection = change { true } else { false }
    }

    /// Answers the held requests whose segment or part now exists, each loop's in one task, and with 404 those
    /// for a part that will not (the stream ended, or was cut otherwise than the hint said).
    private func answerWaits() {
        let nextPart = segmenter?.list.nextPart
        var answered: [ObjectIdentifier: (loop: EventLoop, answers: [(EventLoopPromise<HLSAnswer>, HLSAnswer)])] = [:]
        waits.removeAll { wait in
            if let answer = ready(wait.request) {
                let loop = wait.promise.futureResult.eventLoop
                answered[ObjectIdentifier(loop), default: (loop, [])].answers.append((wait.promise, answer))
                return true
            }
            guard case .file(let name) = wait.request, name != nextPart else { return false }
            wait.promise.fail(HLSRefusal.notFound("\(name) was not made"))
            return true
        }
        // Other loops first, so that they write their answers while this one writes its own.
        for (loop, answers) in answered.values where loop !== eventLoop {
            loop.execute { for (promise, answer) in answers { promise.succeed(answer) } }
        }
        for (promise, answer) in answered[ObjectIdentifier(eventLoop)]?.answers ?? [] { promise.succeed(answer) }
        if waits.isEmpty {
            expiry?.cancel()
            expiry = nil
        }
    }

    /// Answers 503 to the requests held past their deadline when the earliest one is due.
    private func scheduleExpiry() {
        guard let first = waits.first else { return expiry = nil }
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        expiry = eventLoop.scheduleTask(deadline: first.deadline) { loopBound.value.expire() }
    }

    private func expire() {
        let now = NIODeadline.now()
        waits.removeAll { wait in
            guard wait.deadline <= now else { return false }
            wait.promise.fail(HLSRefusal.unavailable("what the request waits for did not come in three target "
                + "durations"))
            return true
        }
        scheduleExpiry()
    }
}
