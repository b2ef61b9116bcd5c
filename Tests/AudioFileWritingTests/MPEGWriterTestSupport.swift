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

/// An independent tool (ffmpeg, ffprobe, python3 with mutagen) run on a written file.
enum ToolRun {
    /// A folder of its own for each test's files.
    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to `name` in a new folder and returns its path.
    static func file(_ bytes: [UInt8], named name: String) throws -> String {
        let url = folder().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Runs `tool` from the PATH to its end; a missing tool is a failure, never a skip.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting, so a full pipe cannot block the tool.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus != 127, "\(tool) is not installed")
        return (process.terminationStatus, outputData, String(decoding: errorData, as: UTF8.self))
    }

    /// What `ffprobe -v warning` says of the file, without the addresses of FFmpeg's contexts (`[mp3 @ 0x55e5…]`):
    /// empty when it reads it without a complaint.
    static func ffprobeWarnings(_ path: String) throws -> String {
        let run = try run("ffprobe", ["-v", "warning", path])
        return run.errors.replacing(#/ @ 0x[0-9a-f]+/#, with: "") + (run.status == 0 ? "" : "exit status \(run.status)")
    }

    /// One of ffprobe's stream or format entries (`stream=duration`, `format=duration`, `stream_tags=encoder`).
    static func ffprobe(_ entry: String, of path: String) throws -> String {
        let run = try run("ffprobe", ["-v", "error", "-show_entries", entry, "-of", "default=nw=1:nk=1", path])
        return String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ffmpeg's decode of the file as 32-bit floats, interleaved; FFmpeg's floating-point decoders throughout.
    static func decode(_ path: String) throws -> [Float] {
        let run = try run("ffmpeg", ["-v", "error", "-i", path, "-f", "f32le", "-c:a", "pcm_f32le", "-"])
        #expect(run.status == 0, "ffmpeg: \(run.errors)")
        return run.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Runs a Python program with mutagen and returns what it printed as JSON.
    static func mutagen(_ program: String, _ path: String) throws -> [String: Any] {
        let run = try run("python3", ["-c", "import json, sys, mutagen.id3\n" + program, path])
        #expect(run.status == 0, "python3: \(run.errors)")
        return (try? JSONSerialization.jsonObject(with: run.output)) as? [String: Any] ?? [:]
    }
}
