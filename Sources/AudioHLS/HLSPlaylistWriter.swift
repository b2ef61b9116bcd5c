import AudioRecording

/// The text of a media playlist (RFC 8216bis §4.4) over a segmenter's list: live, with Low-Latency parts when
/// the list has them, or video-on-demand.
public enum HLSPlaylistWriter {
    /// How a playlist is asked for.
    public struct Request: Equatable, Sendable {
        /// A complete playlist of a file, which never changes (`EXT-X-PLAYLIST-TYPE:VOD`).
        public var isOnDemand = false
        /// A delta update (`_HLS_skip=YES`, §6.2.5.1): segments older than the skip boundary are left out.
        public var skipsOldSegments = false

        public init(isOnDemand: Bool = false, skipsOldSegments: Bool = false) {
            self.isOnDemand = isOnDemand
            self.skipsOldSegments = skipsOldSegments
        }
    }

    /// Parts are listed for the segments ending within this many target durations of the live edge (§6.2.2).
    static let partListingDurations = 3.0
    /// `CAN-SKIP-UNTIL`, in target durations: §4.4.3.8 asks for at least six.
    static let skipBoundaryDurations = 6.0

    /// The playlist of `list`.
    public static func media(_ list: HLSMediaList, _ request: Request = Request()) -> String {
        let target = Double(list.targetDuration)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version(list))", "#EXT-X-TARGETDURATION:\(list.targetDuration)"]
        if let partTarget = list.partTarget {
            // PART-HOLD-BACK: at least three part targets (§4.4.3.8).
            lines.append("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK="
                + decimal(3 * partTarget) + ",CAN-SKIP-UNTIL=" + decimal(skipBoundaryDurations * target))
            lines.append("#EXT-X-PART-INF:PART-TARGET=" + decimal(partTarget))
        }
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(list.mediaSequence)")
        if list.discontinuitySequence > 0 {
            lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(list.discontinuitySequence)")
        }
        if request.isOnDemand { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        lines.append("#EXT-X-INDEPENDENT-SEGMENTS")

        let ends = segmentEnds(list)
        let liveEdge = ends.last ?? 0
        var skipped = 0
        if request.skipsOldSegments, list.partTarget != nil {
            skipped = ends.prefix { $0 < liveEdge - skipBoundaryDurations * target }.count
            skipped = min(skipped, list.completeSegments.count)
            if skipped > 0 { lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)") }
            // §4.4.5.2: only `_HLS_skip=v2` may leave out date ranges.
            lines += list.segments.prefix(skipped).compactMap(dateRange(of:))
        }
        var initSection: String?
        // The segment under way is listed once it has a part.
        for (index, segment) in list.segments.enumerated().dropFirst(skipped)
        where segment.isComplete || !segment.parts.isEmpty {
            if segment.isDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            if let range = dateRange(of: segment) { lines.append(range) }
            if let section = segment.initSection, section != initSection {
                lines.append("#EXT-X-MAP:URI=\"\(section)\"")
            }
            initSection = segment.initSection
            lines.append("#EXT-X-PROGRAM-DATE-TIME:" + WallClock.iso8601(segment.date, milliseconds: true))
            if ends[index] >= liveEdge - partListingDurations * target {
                for part in segment.parts {
                    lines.append("#EXT-X-PART:DURATION=" + decimal(frames: part.frames, rate: segment.sampleRate)
                        + ",URI=\"\(part.name)\",INDEPENDENT=YES")
                }
            }
            guard segment.isComplete else { continue }
            lines.append("#EXTINF:" + decimal(frames: segment.frames, rate: segment.sampleRate) + ",")
            lines.append(segment.name)
        }
        if let nextPart = list.nextPart, !list.isEnded {
            lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(nextPart)\"")
        }
        if list.isEnded { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `EXT-X-DATERANGE` (§4.4.5.1) of what plays from `segment`'s start, when it changed there.
    private static func dateRange(of segment: HLSSegmentEntry) -> String? {
        guard let playing = segment.nowPlaying else { return nil }
        var line = "#EXT-X-DATERANGE:ID=\"nowplaying-\(segment.sequence)\",CLASS=\"\(nowPlayingClass)\","
            + "START-DATE=\"\(WallClock.iso8601(segment.date, milliseconds: true))\","
            + "X-TITLE=\"\(quoted(playing.title))\""
        if let artist = playing.artist { line += ",X-ARTIST=\"\(quoted(artist))\"" }
        return line
    }

    /// The `CLASS` of the date ranges that say what plays.
    public static let nowPlayingClass = "com.audiostream.nowplaying"

    /// `text` as a quoted-string may hold it (§4.2): no double quote, line feed or carriage return.
    private static func quoted(_ text: String) -> String {
        String(text.unicodeScalars.map { $0 == "\"" ? "'" : $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }

    /// The lowest version with every tag used: 9 for delta updates and parts, 6 for `EXT-X-MAP` without
    /// I-frames, 3 for decimal durations (§7).
    private static func version(_ list: HLSMediaList) -> Int {
        if list.partTarget != nil { return 9 }
        return list.segments.contains { $0.initSection != nil } ? 6 : 3
    }

    /// Where each segment ends, in seconds from the first one's start; the one under way ends with its parts.
    private static func segmentEnds(_ list: HLSMediaList) -> [Double] {
        var end = 0.0
        return list.segments.map { segment in
            end += segment.isComplete ? segment.duration
                : Double(segment.parts.reduce(0) { $0 + $1.frames }) / segment.sampleRate
            return end
        }
    }

    /// `frames / rate` seconds as a decimal of nine places at most, exact to far below a sample: durations add
    /// up to the decoded length to the sample over days of segments.
    static func decimal(frames: Int64, rate: Double) -> String {
        let nanoseconds = (Double(frames) * 1e9 / rate).rounded()
        return decimal(nanoseconds: Int64(nanoseconds))
    }

    static func decimal(_ seconds: Double) -> String {
        decimal(nanoseconds: Int64((seconds * 1e9).rounded()))
    }

    private static func decimal(nanoseconds: Int64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = String(nanoseconds % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
