import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// The bytes end before the parser knew the format.
struct NoFormat: Error {}

/// A file's packets as our parser gives them to a writer: the track, its tags, its packet table and its packets
/// with their frame counts.
struct ParsedTrack {
    var track: TrackFormat
    var packets: [(bytes: [UInt8], frames: Int64)] = []
    var packetTable: PacketTableInfo?
    var tags = NormalizedTags()

    /// Frames in all the packets.
    var frames: Int64 { packets.reduce(0) { $0 + $1.frames } }

    init(_ file: URL) throws {
        try self.init([UInt8](Data(contentsOf: file)))
    }

    init(_ bytes: [UInt8]) throws {
        var format: AudioStreamBasicDescription?
        var cookie: [UInt8] = []
        var layout: AudioChannelLayout?
        var packets: [(bytes: [UInt8], frames: Int64)] = []
        var table: PacketTableInfo?
        var tags = NormalizedTags()
        let stream = try AudioFileStream { event in
            switch event {
            case .property(.dataFormat, .format(let value)): format = format ?? value
            case .property(.magicCookieData, .data(let value)): cookie = value
            case .property(.channelLayout, .channelLayout(let value)): layout = layout ?? value
            case .property(.packetTableInfo, .packetTableInfo(let value)): table = value
            case .metadata(let tag): tags = tag.metadata.tags
            case .packets(let batch):
                guard let descriptions = batch.descriptions else {
                    packets.append((Array(batch.bytes), batch.frameCount))
                    return
                }
                for description in descriptions {
                    let start = Int(description.startOffset)
                    packets.append((Array(batch.bytes[start..<start + Int(description.dataByteSize)]),
                                    Int64(description.variableFramesInPacket > 0 ? description.variableFramesInPacket
                                          : batch.format.framesPerPacket)))
                }
            default: break
            }
        }
        // A movie box after the media is fed first, then the media at its offset, as `audiostream` reads a file.
        let boxes = Self.topLevelBoxes(bytes)
        if let media = boxes.first(where: { $0.type == "mdat" })?.range,
           let movie = boxes.first(where: { $0.type == "moov" })?.range, movie.lowerBound > media.lowerBound {
            for range in [0..<media.lowerBound, movie, media.lowerBound..<movie.lowerBound] {
                try stream.parse(Array(bytes[range]), offset: Int64(range.lowerBound))
            }
            try stream.finish()
        } else {
            try feed(bytes, to: stream)
        }
        guard let format else { throw NoFormat() }
        track = TrackFormat(format: format, cookie: cookie, channelLayout: layout)
        self.packets = packets
        packetTable = table
        self.tags = tags
    }

    /// The top-level boxes of an MP4 file with 32-bit sizes, up to the first that does not fit.
    static func topLevelBoxes(_ bytes: [UInt8]) -> [(type: String, range: Range<Int>)] {
        var boxes: [(type: String, range: Range<Int>)] = []
        var position = 0
        while position + 8 <= bytes.count {
            let size = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, position + size <= bytes.count else { break }
            let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
            boxes.append((type, position..<position + size))
            position += size
        }
        return boxes
    }

    /// Frames from the first packet to the start of packet `index`.
    func frame(atPacket index: Int) -> Int64 { packets.prefix(index).reduce(0) { $0 + $1.frames } }

    /// Writes packets `range` to `path` as an M4A with the trims and tags given.
    func writeM4A(_ range: Range<Int>, leadingTrim: Int64, trailingTrim: Int64, tags: NormalizedTags = NormalizedTags(),
                  to path: String) throws {
        var target = try FileTarget(creating: path)
        defer { target.close() }
        var writer = try M4AWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        for index in range {
            try packets[index].bytes.withUnsafeBytes {
                try writer.append($0, frames: packets[index].frames, to: &target)
            }
        }
        try writer.finish(trailingTrim: trailingTrim, to: &target)
        try target.flush()
    }
}

