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
        let recorder = StreamRecorder(
            settings: RecordingSettings(template: try PieceNameTemplate(folder.path + "/{n}.mp3"), stream: "s"),
            clockOrigin: 0)
        var pieces: [RecordedPiece] = []
        recorder.finished = { pieces.append($0) }
        recorder.failed = { Issue.record("\($0)") }
        let stream = try AudioFileStream(fileTypeHint: nil) { recorder.handle($0) }
        try stream.parse(Array(try Data(contentsOf: URL(fileURLWithPath: first))))
        try stream.markNewFile()
        try stream.parse(Array(try Data(contentsOf: URL(fileURLWithPath: second))))
        try stream.finish()
        recorder.finish()
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
}
