import AudioFileStream
import AudioRecording
import FixtureSupport
import Foundation
import Testing

/// A recording of one file after another (a playlist, a DJ after the AutoDJ): the second file's trims are its
/// own, so a file that states none is not taken for the first one's padding.
@Suite struct RecorderFilesTests {
    @Test func aFileWithoutTrimsAfterOneWithTrimsIsRecordedWhole() throws {
        let folder = try makeTemporaryFolder("recorder-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Fixtures.directory.appendingPathComponent("record/cbr.mp3").path
        // No Xing frame, no LAME tag: no PacketTableInfo.
        let second = Fixtures.directory.appendingPathComponent("l3-noxing.mp3").path
        let pieces = try Self.record(first, then: second, into: folder, asNewSource: false)
        try #require(pieces.count == 1)
        let expected = (try Self.ffprobePackets(first), try Self.ffprobePackets(second))
        #expect(pieces[0].packets == expected.0 + expected.1, "\(pieces[0].packets) for \(expected)")
    }

    /// The audio packets ffprobe counts in `path` (a Xing frame is none).
    static func ffprobePackets(_ path: String) throws -> Int {
        let output = try FFmpegTool.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                    "stream=nb_read_packets", "-of", "default=nw=1:nk=1", path]).output
        return Int(String(decoding: output, as: UTF8.self).split(separator: "\n").first ?? "") ?? -1
    }

    /// A DJ after the AutoDJ: the AutoDJ item's piece ends, and the DJ's carries none of its tags (it was filed
    /// under the song before it, with that song's album).
    @Test func aNewSourceStartsAPieceWithItsOwnTags() throws {
        let folder = try makeTemporaryFolder("recorder-source")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pieces = try Self.record(Fixtures.directory.appendingPathComponent("tags-id3v24.mp3").path,
                                     then: Fixtures.directory.appendingPathComponent("l3-noxing.mp3").path,
                                     into: folder, asNewSource: true)
        try #require(pieces.count == 2, "\(pieces.map { ($0.path, $0.packets, $0.duration) })")
        #expect(try Self.ffprobeTags(pieces[0].path)["album"] != nil)
        let tags = try Self.ffprobeTags(pieces[1].path)
        #expect(tags["title"] == nil && tags["album"] == nil && tags["artist"] == nil, "\(tags)")
    }

    /// The pieces of a recording of the file at `first`, then, as a new file (of a new source: told as the daemon
    /// tells it, once the first file has ended), the one at `second`.
    static func record(_ first: String, then second: String, into folder: URL, asNewSource: Bool) throws
        -> [RecordedPiece] {
        let recorder = StreamRecorder(
            settings: RecordingSettings(template: try PieceNameTemplate(folder.path + "/{n}.mp3"), stream: "s"),
            clockOrigin: 0)
        var pieces: [RecordedPiece] = []
        recorder.finished = { pieces.append($0) }
        recorder.failed = { Issue.record("\($0)") }
        let stream = try AudioFileStream(fileTypeHint: nil) { recorder.handle($0) }
        try stream.parse(Array(try Data(contentsOf: URL(fileURLWithPath: first))))
        try stream.markNewFile()
        if asNewSource { recorder.beginSource() }
        try stream.parse(Array(try Data(contentsOf: URL(fileURLWithPath: second))))
        try stream.finish()
        recorder.finish()
        return pieces
    }

    /// ffprobe's format tags of `path`, by lowercased key.
    static func ffprobeTags(_ path: String) throws -> [String: String] {
        let output = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
            .output
        let object = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        let tags = (object?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    }
}
