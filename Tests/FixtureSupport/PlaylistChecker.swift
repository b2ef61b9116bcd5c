import Foundation

/// A media playlist checked against the MUST rules of RFC 8216bis (draft-pantos-hls-rfc8216bis) that a player
/// relies on, written from the text of the specification; each violation named by its section.
public struct PlaylistChecker {
    public struct Segment: Equatable {
        public var sequence: Int
        public var uri: String
        public var duration: Double
        public var parts: [Double]
        /// Whether `EXT-X-DISCONTINUITY` comes before it.
        public var isDiscontinuity = false
    }

    public let lines: [String]
    public private(set) var violations: [String] = []
    public private(set) var segments: [Segment] = []
    public private(set) var targetDuration: Int?
    public private(set) var mediaSequence = 0
    public private(set) var discontinuitySequence = 0
    public private(set) var partTarget: Double?
    public private(set) var skipped = 0

    public init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        check()
    }

    private mutating func fail(_ rule: String) { violations.append(rule) }

    private mutating func check() {
        guard lines.first == "#EXTM3U" else { return fail("§4.4.1.1: the first line is not #EXTM3U") }
        var version = 1
        var versions = 0
        var targets = 0
        var sawSegment = false
        var pendingDuration: Double?
        var pendingParts: [Double] = []
        var hasMap = false
        var hasSkip = false
        var hasServerControl: [String: String]?
        var hints: [String] = []
        var isVOD = false
        var ended = false
        var hasDateRange = false
        var hasDate = false
        var isDiscontinuity = false
        for (index, line) in lines.enumerated().dropFirst() {
            if ended { fail("§4.4.3.4: a line after EXT-X-ENDLIST: \(line)") }
            let (tag, value) = Self.split(line)
            switch tag {
            case "#EXT-X-VERSION":
                versions += 1
                version = Int(value) ?? 0
            case "#EXT-X-TARGETDURATION":
                targets += 1
                guard let target = Int(value) else { fail("§4.4.3.1: TARGETDURATION is not an integer"); break }
                targetDuration = target
            case "#EXT-X-MEDIA-SEQUENCE":
                if sawSegment { fail("§4.4.3.2: MEDIA-SEQUENCE after the first segment") }
                mediaSequence = Int(value) ?? -1
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                if sawSegment { fail("§4.4.3.3: DISCONTINUITY-SEQUENCE after the first segment") }
                discontinuitySequence = Int(value) ?? -1
            case "#EXT-X-DISCONTINUITY":
                isDiscontinuity = true
            case "#EXT-X-PLAYLIST-TYPE":
                isVOD = value == "VOD"
            case "#EXT-X-SERVER-CONTROL":
                hasServerControl = Self.attributes(value)
            case "#EXT-X-PART-INF":
                partTarget = Self.attributes(value)["PART-TARGET"].flatMap(Double.init)
                if partTarget == nil { fail("§4.4.3.7: PART-INF without PART-TARGET") }
            case "#EXT-X-SKIP":
                hasSkip = true
                if sawSegment { fail("§4.4.5.2: SKIP after a segment") }
                skipped = Self.attributes(value)["SKIPPED-SEGMENTS"].flatMap(Int.init) ?? -1
                if skipped < 0 { fail("§4.4.5.2: SKIP without SKIPPED-SEGMENTS") }
            case "#EXT-X-MAP":
                hasMap = true
                if Self.attributes(value)["URI"] == nil { fail("§4.4.4.5: MAP without URI") }
            case "#EXT-X-DATERANGE":
                let attributes = Self.attributes(value)
                guard attributes["ID"] != nil, let start = attributes["START-DATE"], Self.isDateTime(start) else {
                    fail("§4.4.5.1: DATERANGE without an ID and a START-DATE"); break
                }
                hasDateRange = true
            case "#EXT-X-PROGRAM-DATE-TIME":
                hasDate = true
                if !Self.isDateTime(value) { fail("§4.4.4.6: PROGRAM-DATE-TIME \(value) is not ISO 8601 with a zone") }
            case "#EXT-X-PART":
                sawSegment = true
                let attributes = Self.attributes(value)
                guard let duration = attributes["DURATION"].flatMap(Double.init), attributes["URI"] != nil else {
                    fail("§4.4.4.9: PART without DURATION and URI"); break
                }
                if let partTarget, duration > partTarget + 1e-9 {
                    fail("§4.4.4.9: a part of \(duration) s is longer than PART-TARGET \(partTarget)")
                }
                if partTarget == nil { fail("§4.4.3.7: PART before, or without, PART-INF") }
                pendingParts.append(duration)
            case "#EXT-X-PRELOAD-HINT":
                let attributes = Self.attributes(value)
                guard let type = attributes["TYPE"], attributes["URI"] != nil else {
                    fail("§4.4.5.3: PRELOAD-HINT without TYPE and URI"); break
                }
                if hints.contains(type) { fail("§4.4.5.3: two PRELOAD-HINTs of TYPE \(type)") }
                hints.append(type)
            case "#EXTINF":
                sawSegment = true
                guard let duration = Double(value.split(separator: ",", maxSplits: 1).first ?? "") else {
                    fail("§4.4.4.1: EXTINF without a duration"); break
                }
                pendingDuration = duration
            case "#EXT-X-ENDLIST":
                ended = true
            case _ where !line.hasPrefix("#"):
                guard let duration = pendingDuration else {
                    fail("§4.4.4.1: segment \(line) at line \(index + 1) has no EXTINF"); break
                }
                if let target = targetDuration, Int(duration.rounded()) > target {
                    fail("§4.4.3.1: EXTINF \(duration) rounds past TARGETDURATION \(target)")
                }
                if !pendingParts.isEmpty, abs(pendingParts.reduce(0, +) - duration) > 1e-6 {
                    fail("§4.4.4.9: the parts of \(line) last \(pendingParts.reduce(0, +)) s, not \(duration)")
                }
                segments.append(Segment(sequence: mediaSequence + skipped + segments.count, uri: line,
                                        duration: duration, parts: pendingParts, isDiscontinuity: isDiscontinuity))
                isDiscontinuity = false
                pendingDuration = nil
                pendingParts = []
            default:
                break
            }
        }
        if versions > 1 { fail("§4.4.2.1: more than one EXT-X-VERSION") }
        if targets != 1 { fail("§4.4.3.1: EXT-X-TARGETDURATION \(targets) times, not once") }
        if segments.contains(where: { $0.duration != $0.duration.rounded() }), version < 3 {
            fail("§7: decimal EXTINF needs version 3")
        }
        if hasMap, version < 6 { fail("§4.4.4.5: EXT-X-MAP needs version 6") }
        if hasSkip, version < 9 { fail("§4.4.5.2: EXT-X-SKIP needs version 9") }
        if let partTarget {
            let holdBack = hasServerControl?["PART-HOLD-BACK"].flatMap(Double.init)
            if !(holdBack.map { $0 >= 2 * partTarget } ?? false) {
                fail("§4.4.3.8: PART-HOLD-BACK is missing or less than twice PART-TARGET")
            }
        }
        if let skipUntil = hasServerControl?["CAN-SKIP-UNTIL"].flatMap(Double.init), let targetDuration,
           skipUntil < 6 * Double(targetDuration) {
            fail("§4.4.3.8: CAN-SKIP-UNTIL is less than six target durations")
        }
        if isVOD, !ended { fail("§4.4.3.5: a VOD playlist without EXT-X-ENDLIST") }
        if hasDateRange, !hasDate { fail("§4.4.5.1: DATERANGE in a playlist without PROGRAM-DATE-TIME") }
    }

    /// What a later playlist of the same stream breaks of §6.2.1 and §6.3.5: the media sequence never goes back,
    /// and a segment keeps its URI and duration.
    public static func continuity(from old: PlaylistChecker, to new: PlaylistChecker) -> [String] {
        var violations: [String] = []
        if new.mediaSequence < old.mediaSequence { violations.append("§6.2.1: the media sequence went back") }
        for segment in new.segments {
            if let before = old.segments.first(where: { $0.sequence == segment.sequence }),
               before.uri != segment.uri || before.duration != segment.duration
                || before.isDiscontinuity != segment.isDiscontinuity {
                violations.append("§6.2.1: segment \(segment.sequence) changed from \(before) to \(segment)")
            }
        }
        // §6.2.2: each discontinuity that leaves the playlist counts in DISCONTINUITY-SEQUENCE (known only when
        // the old playlist listed every segment).
        if old.skipped == 0 {
            let left = old.segments.filter { $0.sequence < new.mediaSequence && $0.isDiscontinuity }.count
            if new.discontinuitySequence != old.discontinuitySequence + left {
                violations.append("§6.2.2: DISCONTINUITY-SEQUENCE went from \(old.discontinuitySequence) to "
                    + "\(new.discontinuitySequence) while \(left) discontinuities left")
            }
        }
        return violations
    }

    private static func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (String(line[..<colon]), String(line[line.index(after: colon)...]))
    }

    /// An attribute list (§4.2): NAME=value pairs, quoted strings without their quotes.
    public static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let name = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            var value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                let close = body.firstIndex(of: "\"") ?? body.endIndex
                value = body[..<close]
                rest = body[close...].dropFirst()
            } else {
                let comma = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<comma]
                rest = rest[comma...]
            }
            result[name] = String(value)
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return result
    }

    private static func isDateTime(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#,
                   options: .regularExpression) != nil
    }
}
