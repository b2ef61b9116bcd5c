/// What a player needs of a Low-Latency HLS media playlist: the parts listed, where each starts, which part comes
/// next, and how far behind the live edge to play. Read from the bytes line by line, without strings but for the
/// parts' names: a thousand players read by one thread must each cost little.
struct HLSPlaylistView {
    struct Part {
        let uri: String
        /// Seconds from the start of the playlist's first segment to the part's start; not a number after an
        /// `EXT-X-SKIP` (a delta update).
        let start: Double
        let duration: Double
    }

    let mediaSequence: Int
    /// `PART-HOLD-BACK`: how far from the end of the playlist a player may start.
    let partHoldBack: Double
    let parts: [Part]
    /// The segment and part a blocking reload waits for next: the part after the last one listed.
    let next: (msn: Int, part: Int)
    /// `EXT-X-ENDLIST`: nothing more will come.
    let isEnded: Bool

    private static let mediaSequenceTag = Array("#EXT-X-MEDIA-SEQUENCE:".utf8)
    private static let serverControlTag = Array("#EXT-X-SERVER-CONTROL:".utf8)
    private static let partTag = Array("#EXT-X-PART:".utf8)
    private static let durationTag = Array("#EXTINF:".utf8)
    private static let skipTag = Array("#EXT-X-SKIP:".utf8)
    private static let endTag = Array("#EXT-X-ENDLIST".utf8)

    /// - Throws: `LoadError` when the playlist lacks what a Low-Latency player needs.
    init(_ text: ArraySlice<UInt8>) throws {
        var mediaSequence: Int?
        var partHoldBack: Double?
        var parts: [Part] = []
        var segmentStart = 0.0
        var segments = 0
        var partsInSegment = 0
        var segmentPartsDuration = 0.0
        var isEnded = false
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: 10) ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            guard line.first == 35 else { continue }   // "#"
            if line.starts(with: Self.partTag) {
                let value = line.dropFirst(Self.partTag.count)
                guard let uri = Self.attribute("URI", in: value), let duration = Self.number("DURATION", in: value)
                else { throw LoadError("a PART without URI or DURATION") }
                parts.append(Part(uri: String(decoding: uri.dropFirst().dropLast(), as: UTF8.self),
                                  start: segmentStart + segmentPartsDuration, duration: duration))
                partsInSegment += 1
                segmentPartsDuration += duration
            } else if line.starts(with: Self.durationTag) {
                let value = line.dropFirst(Self.durationTag.count)
                guard let duration = Self.decimal(value.prefix { $0 != 44 }) else {   // up to ","
                    throw LoadError("an EXTINF without a duration")
                }
                segmentStart += duration
                segments += 1
                partsInSegment = 0
                segmentPartsDuration = 0
            } else if line.starts(with: Self.mediaSequenceTag) {
                mediaSequence = Self.decimal(line.dropFirst(Self.mediaSequenceTag.count)).map { Int($0) }
            } else if line.starts(with: Self.serverControlTag) {
                partHoldBack = Self.number("PART-HOLD-BACK", in: line.dropFirst(Self.serverControlTag.count))
            } else if line.starts(with: Self.skipTag) {
                let skipped = Self.number("SKIPPED-SEGMENTS", in: line.dropFirst(Self.skipTag.count)) ?? 0
                segments += Int(skipped)
                segmentStart = .nan
            } else if line.starts(with: Self.endTag) {
                isEnded = true
            }
        }
        guard let mediaSequence, let partHoldBack else {
            throw LoadError("a playlist without MEDIA-SEQUENCE or PART-HOLD-BACK")
        }
        self.mediaSequence = mediaSequence
        self.partHoldBack = partHoldBack
        self.parts = parts
        next = (mediaSequence + segments, partsInSegment)
        self.isEnded = isEnded
    }

    /// The first part a player may start with: the latest whose start is at least `partHoldBack` from the end.
    var startingPart: Int? {
        guard let last = parts.last else { return nil }
        let end = last.start + last.duration
        // Nine decimals in the playlist: a part target's multiple may be a nanosecond off.
        return parts.lastIndex { end - $0.start >= partHoldBack - 1e-6 }
    }

    /// The value of `name` in an attribute list, quotes kept.
    private static func attribute(_ name: String, in list: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let key = Array((name + "=").utf8)
        var start = list.startIndex
        while start < list.endIndex {
            var end = start
            var quoted = false
            while end < list.endIndex && (quoted || list[end] != 44) {   // up to a "," outside quotes
                if list[end] == 34 { quoted.toggle() }
                end += 1
            }
            if list[start..<end].starts(with: key) { return list[(start + key.count)..<end] }
            start = end + 1
        }
        return nil
    }

    private static func number(_ name: String, in list: ArraySlice<UInt8>) -> Double? {
        attribute(name, in: list).flatMap(decimal)
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }
}
