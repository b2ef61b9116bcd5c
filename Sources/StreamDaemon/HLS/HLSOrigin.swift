import AudioFileStream
import AudioHLS
import Logging
import NIOCore

/// A stream's HTTP Live Streaming as the daemon makes it: the segmenter fed the pipeline's events, the files of
/// the window and the playlists, made once per change, put on the board every loop reads (`HLSBoard`), and the
/// folder written. Each loop's `HLSDesk` answers the requests of its connections, those held until a segment or
/// part exists too (blocking playlist reload, RFC 8216bis §6.2.5.2, and the preload hint's part): after each
/// change the desks are told to look again, one task per other loop. Confined to the stream's event loop.
final class HLSOrigin {
    private let eventLoop: EventLoop
    private let logger: Logger
    private var segmenter: HLSSegmenter?
    private let desks: HLSDesks
    private let folder: HLSFolderWriter?
    /// `Cache-Control` of a playlist: half a part, or half a segment without parts.
    private let playlistCacheControl: String

    init(config: HLSConfig, stream: String, desks: HLSDesks, eventLoop: EventLoop, logger: Logger) {
        self.eventLoop = eventLoop
        self.desks = desks
        self.logger = logger
        folder = config.path.map { HLSFolderWriter(path: $0, stream: stream, logger: logger) }
        let settings = config.settings
        let half = (settings.part > 0 ? settings.part : settings.segment) / 2
        playlistCacheControl = "max-age=\(Int(half))"
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
        desks.board.listeners()
    }

    private func published(_ change: HLSChange) {
        let board = desks.board
        switch change {
        case .initSection(let name, let bytes), .part(let name, let bytes), .segment(let name, let bytes):
            board.put(HLSAnswer(body: ByteBuffer(bytes: bytes), contentType: HLSAnswer.contentType(of: name),
                                cacheControl: HLSAnswer.immutable), named: name)
        case .removed(let names):
            board.remove(names)
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
        board.edge = HLSEdge(list: list, playlists: (playlistAnswer(full), playlistAnswer(delta)))
        folder?.take(change, playlist: full)
        desks.update()
    }

    private func playlistAnswer(_ text: String) -> HLSAnswer {
        HLSAnswer(body: ByteBuffer(string: text), contentType: HLSAnswer.contentType(of: HLSRequest.playlistName),
                  cacheControl: playlistCacheControl)
    }

    private static func isSection(_ change: HLSChange) -> Bool {
        if case .initSection = change { true } else { false }
    }
}
