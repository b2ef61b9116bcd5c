import AudioFileStream
import AudioFileWriting
import Foundation
import FixtureSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A fixture's packets as our parser gives them, to drive a writer.
struct ParsedTrack {
    var track: TrackFormat
    var packets: [[UInt8]] = []
    var frames: [Int64] = []
    var packetTable: PacketTableInfo?
    var tags: NormalizedTags?

    init(_ file: URL) throws {
        try self.init(bytes: [UInt8](Data(contentsOf: file)))
    }

    init(bytes: [UInt8]) throws {
        var format: AudioStreamBasicDescription?
        var cookie: [UInt8] = []
        var packets: [[UInt8]] = []
        var frames: [Int64] = []
        var table: PacketTableInfo?
        var tags: NormalizedTags?
        let stream = try AudioFileStream { event in
            switch event {
            case .property(.dataFormat, .format(let value)): format = value
            case .property(.magicCookieData, .data(let value)): cookie = value
            case .property(.packetTableInfo, .packetTableInfo(let value)): table = value
            case .metadata(let tag): tags = tag.metadata.tags
            case .packets(let batch):
                for description in batch.descriptions! {
                    let start = Int(description.startOffset)
                    packets.append(Array(batch.bytes[start..<start + Int(description.dataByteSize)]))
                    frames.append(Int64(description.variableFramesInPacket > 0 ? description.variableFramesInPacket
                                        : batch.format.framesPerPacket))
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
        track = TrackFormat(format: try #require(format), cookie: cookie)
        self.packets = packets
        self.frames = frames
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
    func frame(atPacket index: Int) -> Int64 { frames.prefix(index).reduce(0, +) }

    /// Writes packets `range` to `path` as an M4A with the trims and tags given.
    func writeM4A(_ range: Range<Int>, leadingTrim: Int64, trailingTrim: Int64, tags: NormalizedTags = NormalizedTags(),
                  to path: String) throws {
        var target = try FileTarget(creating: path)
        defer { target.close() }
        var writer = try M4AWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        for index in range {
            try packets[index].withUnsafeBytes { try writer.append($0, frames: frames[index], to: &target) }
        }
        try writer.finish(trailingTrim: trailingTrim, to: &target)
        try target.flush()
    }
}

/// The independent tools the M4A writer's tests check its files with, beyond `FFmpegTool`'s.
enum M4ATools {
    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("m4a-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// What ffprobe warns of a file with artwork, without the addresses in it: ffmpeg 5.1 warns of any M4A
    /// with `covr`, its own and mutagen's, that the picture's stream has no time scale, so such a file is
    /// checked against one of ffmpeg's or mutagen's.
    static func warningsWithArtwork(_ path: String) throws -> String {
        try FFmpegTool.warnings(path).replacingOccurrences(of: " @ 0x[0-9a-f]+", with: "", options: .regularExpression)
    }

    /// One `-show_entries` value of the audio stream, as ffprobe prints it.
    static func probe(_ path: String, stream entry: String, countPackets: Bool = false) throws -> String {
        let arguments = ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=\(entry)", "-of",
                         "default=noprint_wrappers=1:nokey=1"] + (countPackets ? ["-count_packets"] : []) + [path]
        return String(decoding: try FFmpegTool.run("ffprobe", arguments).output, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What a Python program using mutagen (Debian's python3-mutagen) prints of `path`, its argument.
    static func mutagen(_ program: String, _ path: String) throws -> String {
        String(decoding: try FFmpegTool.run("python3", ["-c", program, path]).output, as: UTF8.self)
    }
}

extension Fixtures {
    /// The AAC M4A without PNS (Tests/Fixtures/make_writing_fixtures.sh), whose cuts decode to the whole's samples.
    static let aacWithoutNoiseSubstitution = directory.appendingPathComponent("writing/aac-lc-nopns.m4a")
}

/// A file written at offsets, which can leave a hole that takes no disk space: for pieces past 4 GiB.
struct SparseFileTarget: WriteTarget {
    private let descriptor: Int32
    private(set) var size: Int64 = 0

    init(creating path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: size)
        size += Int64(bytes.count)
    }

    func overwrite(at offset: Int64, with bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }

    /// Moves the end `count` bytes on without writing them.
    mutating func skip(_ count: Int64) {
        size += count
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        try #require(bytes.isEmpty || pwrite(descriptor, bytes.baseAddress!, bytes.count, off_t(offset)) == bytes.count)
    }
}
