import AudioFileStream
import AudioFileWriting
import Foundation
import FixtureSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The independent tools the M4A writer's tests check its files with, beyond `FFmpegTool`'s.
enum M4ATools {

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
