import AudioFileStream
import AudioRecording
import FixtureSupport
import Foundation
import Testing

/// A piece cut short as a crash leaves it (`.part`, its last buffer never stored) is repaired into a file that
/// ffprobe reads without a warning and that decodes to the start of what the whole piece would have held.
@Suite struct PartRepairTests {
    static let fixtures = ["cbr.mp3", "vbr.mp3", "aac.m4a", "opus.opus", "vorbis.ogg", "flac.flac", "pcm.wav"]

    @Test func everyContainerIsCovered() {
        #expect(Self.fixtures.count == 7)
    }

    @Test(arguments: fixtures)
    func aPieceCutShortIsRepaired(_ fixture: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repair-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Fixtures.directory.appendingPathComponent("record/\(fixture)").path
        let fileExtension = fixture.split(separator: ".").last!
        let recording = try PieceNameTemplate(folder.path + "/recording/{n}.\(fileExtension)")
        let crash = try PieceNameTemplate(folder.path + "/crash/{n}.\(fileExtension)")
        let recorder = StreamRecorder(settings: RecordingSettings(template: recording, stream: "radio"),
                                      clockOrigin: 1_700_000_000)
        var failure: (any Error)?
        recorder.failed = { failure = $0 }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let stream = try AudioFileStream { recorder.handle($0) }
        // Two thirds of the input, then the piece as a kill -9 leaves it: what was stored of it so far.
        try stream.parse(Array(bytes[..<(bytes.count * 2 / 3)]))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("crash"),
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.path + "/recording/001.\(fileExtension).part",
                                         toPath: folder.path + "/crash/001.\(fileExtension).part")
        try stream.parse(Array(bytes[(bytes.count * 2 / 3)...]))
        try stream.finish()
        recorder.finish()
        #expect(failure == nil)

        let (repaired, errors) = PartRepair.repairAll(of: crash, stream: "radio")
        #expect(errors.isEmpty, "\(errors)")
        #expect(repaired == [folder.path + "/crash/001.\(fileExtension)"])
        let path = try #require(repaired.first)
        #expect(try FFmpegTool.warnings(path) == "", "\(path)")
        let cut = try FFmpegTool.decode(path)
        let whole = try FFmpegTool.decode(folder.path + "/recording/001.\(fileExtension)")
        #expect(cut.count > whole.count / 4)
        let isPrefix = cut == Array(whole.prefix(cut.count))
        #expect(isPrefix, "\(path) decodes to other samples than the start of the whole piece")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/crash") == [path.split(separator: "/").last.map(String.init)!])
    }
}
