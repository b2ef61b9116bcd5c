import AudioHLS

/// Where a stream's HLS stands, as the requests held for it need to know: the playlists as they are now, and
/// which segments and parts they list. Made by the `HLSOrigin` at each change, read by every loop's `HLSDesk`.
struct HLSEdge: Sendable {
    /// The playlist and its delta update; nil until the first part or segment.
    let playlists: (full: HLSAnswer, delta: HLSAnswer)?
    /// Whether a playlist may be served: once it lists `segmentsToStart` complete segments, or the stream ended.
    let isServable: Bool
    let isEnded: Bool
    let hasParts: Bool
    /// The sequence number of the last complete segment (the one before the first listed when none is).
    let lastComplete: Int
    /// The last segment listed (complete, or with a part): its number, its parts and whether it is complete.
    let last: (sequence: Int, parts: Int, isComplete: Bool)?
    /// The part the preload hint names, which a request may wait for.
    let nextPart: String?

    /// Segments a playlist lists before it is served: a player starts three target durations from the live edge
    /// (RFC 8216bis §6.3.3), and one given fewer segments may never start (Chromium).
    static let segmentsToStart = 3

    /// Before anything is cut.
    init() {
        playlists = nil
        isServable = false
        isEnded = false
        hasParts = false
        lastComplete = -1
        last = nil
        nextPart = nil
    }

    init(list: HLSMediaList, playlists: (full: HLSAnswer, delta: HLSAnswer)) {
        self.playlists = playlists
        let complete = list.completeSegments
        isServable = list.isEnded || complete.count >= Self.segmentsToStart
        isEnded = list.isEnded
        hasParts = list.partTarget != nil
        lastComplete = complete.last?.sequence ?? list.mediaSequence - 1
        last = list.segments.last { $0.isComplete || !$0.parts.isEmpty }
            .map { ($0.sequence, $0.parts.count, $0.isComplete) }
        nextPart = list.nextPart
    }

    /// The playlist a reload asking for segment `msn` (and its part `part`) gets, as a delta update when `skip`;
    /// nil while what it asks for is not listed.
    func playlist(msn: Int?, part: Int?, skip: Bool) -> HLSAnswer? {
        guard let playlists, isServable else { return nil }
        guard isEnded || msn.map({ lists(msn: $0, part: part) }) ?? true else { return nil }
        return skip && hasParts ? playlists.delta : playlists.full
    }

    /// Whether segment `msn` is listed whole, or its part `part`, or anything after it.
    private func lists(msn: Int, part: Int?) -> Bool {
        guard let last, last.sequence >= msn else { return false }
        guard last.sequence == msn else { return true }
        guard let part, hasParts else { return last.isComplete }
        return last.parts > part
    }
}
