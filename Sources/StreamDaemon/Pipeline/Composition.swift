import AudioFileStream
import AudioStreamProtocol

/// A stream made of segments (a playlist): which segment the parser's events belong to, and each event as the
/// stream gives it on. Outside a composition every event passes as it is.
struct Composition {
    /// The segment being parsed.
    private var current: SegmentRange?
    /// The segment whose file starts at the parser's next `newSegment` discontinuity.
    private var next: PlaylistItem?

    /// Whether the stream is a composition: each segment states its own PacketTableInfo, even one equal to the
    /// last segment's.
    var isActive: Bool { current != nil || next != nil }

    /// The first segment starts with the next bytes, or (`awaitsJoin`) the next one starts at the parser's next
    /// `newSegment` discontinuity.
    mutating func begin(_ item: PlaylistItem, awaitsJoin: Bool) {
        if awaitsJoin {
            next = item
        } else {
            current = SegmentRange(item: item)
        }
    }

    /// Passes on what of the parser's `event` belongs to the stream: the segment's packets and its table in
    /// place of the file's, the table that starts a segment marked so; a `newSegment` discontinuity starts the
    /// next segment, and an `input` one (a new file of another source) ends the segment.
    mutating func pass(_ event: AudioFileStreamEvent,
                       to route: (AudioFileStreamEvent, _ startsSegment: Bool) -> Void) {
        if case .discontinuity(let discontinuity) = event, discontinuity.reason == .newSegment {
            current = next.map(SegmentRange.init)
            next = nil
            return route(event, false)
        }
        // Another source's file (the main one back from a playlist fallback) is no part of the segment: it
        // passes uncut, until the playlist's next segment.
        if case .discontinuity(let discontinuity) = event, discontinuity.reason == .input { current = nil }
        guard current != nil else { return route(event, false) }
        switch event {
        case .packets(let batch):
            current!.select(batch) { output in
                switch output {
                case .table(let table, let startsSegment):
                    route(.property(.packetTableInfo, .packetTableInfo(table)), startsSegment)
                case .packets(let batch): route(.packets(batch), false)
                }
            }
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            if let table = current!.note(fileTable: table) {
                route(.property(.packetTableInfo, .packetTableInfo(table)), false)
            }
        default:
            route(event, false)
        }
    }

    /// The event telling subscribers that an item of the composition was skipped, and why.
    static func skippedItemJSON(_ message: String, at offset: Int64) -> JSON {
        .object([
            ("event", .string("warning")), ("offset", .number(offset)), ("kind", .string("skippedItem")),
            ("message", .string(message)),
        ])
    }
}
