import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// A file as our parser reads it: its format, its packets (bytes and frames), its packet table and tags.
struct ParsedFixture {
    var track: TrackFormat?
    var packets: [(bytes: [UInt8], frames: Int64)]
    var packetTableInfo: PacketTableInfo?
    var packetCount: UInt64?
    var tags: [Metadata]

    init(_ bytes: [UInt8]) throws {
        var format: AudioStreamBasicDescription?
        var cookie: [UInt8] = []
        var packets: [(bytes: [UInt8], frames: Int64)] = []
        var packetTableInfo: PacketTableInfo?
        var packetCount: UInt64?
        var tags: [Metadata] = []
        let stream = try AudioFileStream { event in
            switch event {
            case .property(.dataFormat, .format(let value)): format = value
            case .property(.magicCookieData, .data(let value)): cookie = value
            case .property(.packetTableInfo, .packetTableInfo(let value)): packetTableInfo = value
            case .property(.audioDataPacketCount, .uint64(let value)): packetCount = value
            case .packets(let batch):
                for description in batch.descriptions! {
                    let start = Int(description.startOffset)
                    let frames = description.variableFramesInPacket > 0
                        ? Int64(description.variableFramesInPacket) : Int64(batch.format.framesPerPacket)
                    packets.append((Array(batch.bytes[start..<start + Int(description.dataByteSize)]), frames))
                }
            case .metadata(let event): tags.append(event.metadata)
            default: break
            }
        }
        try feed(bytes, to: stream)
        track = format.map { TrackFormat(format: $0, cookie: cookie) }
        (self.packets, self.packetTableInfo, self.packetCount, self.tags) = (packets, packetTableInfo, packetCount, tags)
    }

    init(fixture name: String) throws {
        try self.init([UInt8](Data(contentsOf: Fixtures.directory.appendingPathComponent(name))))
    }

    /// Writes `packets[range]` through `container`'s writer with the trims, into memory.
    func write(_ container: Container, packets range: Range<Int>, tags: NormalizedTags = NormalizedTags(),
               leadingTrim: Int64 = 0, trailingTrim: Int64 = 0) throws -> [UInt8] {
        var target = ByteArrayTarget()
        var writer = try container.makeWriter(track: track!, tags: tags, leadingTrim: leadingTrim, to: &target)
        for packet in packets[range] {
            try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
        }
        try writer.finish(trailingTrim: trailingTrim, to: &target)
        return target.bytes
    }
}

/// A written file on disk, and what the independent tools (FixtureSupport's `FFmpegTool`, mutagen) read of it.
enum WrittenFile {
    /// Writes `bytes` to `name` in a folder of its own and returns its path.
    static func at(_ bytes: [UInt8], named name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Removes the file written at `path` and its folder.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// `ffprobe -v warning`'s words on the file without the addresses of FFmpeg's contexts (`[mp3 @ 0x55e5…]`),
    /// to compare with its words on the source.
    static func warnings(_ path: String) throws -> String {
        try FFmpegTool.warnings(path).replacing(#/ @ 0x[0-9a-f]+/#, with: "")
    }

    /// One of ffprobe's entries for the audio stream (`stream=duration`, `stream=start_time`, `stream_tags=encoder`).
    static func ffprobe(_ entry: String, of path: String) throws -> String {
        let output = try FFmpegTool.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", entry, "-of", "default=nw=1:nk=1", path,
        ]).output
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a Python program with mutagen on the file and returns what it printed as JSON.
    static func mutagen(_ program: String, _ path: String) throws -> [String: Any] {
        let output = try FFmpegTool.run("python3", ["-c", "import json, sys, mutagen.id3\n" + program, path]).output
        return try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
    }
}
