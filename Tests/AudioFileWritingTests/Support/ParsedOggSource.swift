import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation

/// A fixture's packets as our parser gives them, with what the Ogg writer needs to write them again, and the
/// cuts the recorder makes: a range of the decoded output as packets, lead-in and trims.
struct ParsedOggSource {
    var track = TrackFormat(format: AudioStreamBasicDescription(sampleRate: 0, formatID: "none", framesPerPacket: 0,
                                                                channelsPerFrame: 0))
    var packets: [[UInt8]] = []
    var frames: [Int64] = []
    var table: PacketTableInfo?
    var tags = NormalizedTags()

    /// A file's packets (a range of the source's) and its trims.
    struct Cut {
        var packets: Range<Int>
        var leadingTrim: Int64
        var trailingTrim: Int64
    }

    init(_ bytes: [UInt8]) throws {
        var parsed = ParsedOggSource.empty
        let stream = try AudioFileStream { event in
            switch event {
            case .property(.dataFormat, .format(let format)): parsed.track.format = format
            case .property(.magicCookieData, .data(let cookie)): parsed.track.cookie = cookie
            case .property(.packetTableInfo, .packetTableInfo(let table)): parsed.table = table
            // FLAC's picture comes in a block of its own, after the comments.
            case .metadata(let event):
                if let artwork = event.metadata.tags.artwork, parsed.tags.artwork == nil, !parsed.tags.isEmpty {
                    parsed.tags.artwork = artwork
                } else {
                    parsed.tags = event.metadata.tags
                }
            case .packets(let batch):
                for description in batch.descriptions! {
                    let start = Int(description.startOffset)
                    parsed.packets.append(Array(batch.bytes[start..<start + Int(description.dataByteSize)]))
                    parsed.frames.append(Int64(description.variableFramesInPacket))
                }
            default: break
            }
        }
        try feed(bytes, to: stream)
        self = parsed
    }

    private init() {}
    private static var empty: ParsedOggSource { ParsedOggSource() }

    var priming: Int64 { Int64(table?.primingFrames ?? 0) }
    var remainder: Int64 { Int64(table?.remainderFrames ?? 0) }
    /// The frames of the decoded output: the packets' less the trims.
    var validFrames: Int64 { frames.reduce(0, +) - priming - remainder }

    /// Where the first packet that starts at or after `frame` of the decoded output starts.
    func packetStart(atOrAfter frame: Int64) -> Int64 {
        var start = -priming
        for count in frames where start < frame { start += count }
        return start
    }

    /// The whole stream, trimmed as the source is.
    var whole: Cut { Cut(packets: 0..<packets.count, leadingTrim: priming, trailingTrim: remainder) }

    /// The cut holding frames `range` of the decoded output, after `leadIn` (packets or frames, at least), with
    /// the trims that leave exactly the range. The decoded output of the cut's first packet is nothing when
    /// `leadIn.firstPacketDecodesToNothing` (Vorbis): it then does not count towards the trims.
    func cut(_ range: Range<Int64>, leadIn: DecoderLeadIn) -> Cut {
        // Packet i decodes to frames starts[i]..<starts[i + 1] of the output.
        var starts: [Int64] = [-priming]
        for count in frames { starts.append(starts.last! + count) }
        let first = starts.lastIndex { $0 <= range.lowerBound }!
        let end = starts.firstIndex { $0 >= range.upperBound }!
        var leadInStart = max(first - leadIn.packets, 0)
        while leadInStart > 0, starts[first] - starts[leadInStart] < leadIn.frames { leadInStart -= 1 }
        let silentFrames = leadIn.firstPacketDecodesToNothing ? frames[leadInStart] : 0
        return Cut(packets: leadInStart..<end,
                   leadingTrim: range.lowerBound - starts[leadInStart] - silentFrames,
                   trailingTrim: starts[end] - range.upperBound)
    }

    /// The file `cut` makes, written by the Ogg writer.
    func write(_ cut: Cut, container: Container, tags: NormalizedTags? = nil) throws -> [UInt8] {
        var target = ByteArrayTarget()
        var writer = try container.makeWriter(track: track, tags: tags ?? self.tags, leadingTrim: cut.leadingTrim,
                                              to: &target)
        for index in cut.packets {
            try packets[index].withUnsafeBytes { try writer.append($0, frames: frames[index], to: &target) }
        }
        try writer.finish(trailingTrim: cut.trailingTrim, to: &target)
        return target.bytes
    }
}
