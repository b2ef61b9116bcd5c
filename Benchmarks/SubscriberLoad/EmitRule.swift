/// When a relay can first send a frame on: which write of the feed gives it what it needs.
enum EmitRule {
    /// audiostreamd's parser emits a frame once the next frame's header has arrived (its confirmation rule).
    case nextFrameHeader
    /// Icecast 2.4 queues MP3 in blocks of this many bytes counted from the start of the stream and sends only
    /// whole blocks (format_mp3.c: `complete_read`, `REFBUF_SIZE` 1400).
    case block(bytes: Int)

    /// The write that makes `frame` sendable, or nil when no write of the input does.
    func enablingWrite(of frame: Int, in feed: FeedFrames) -> Int? {
        switch self {
        case .nextFrameHeader:
            frame + 1 < feed.count ? frame + 1 : nil
        case .block(let size):
            feed.write(carrying: (feed.ends[frame] + size - 1) / size * size - 1)
        }
    }
}
