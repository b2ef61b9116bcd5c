import AudioFileStream
import AudioRecording
import FixtureSupport
import Foundation
import Testing

/// A stream that tells each title change twice, as an ICY title and as an in-band ID3 tag (scanner feeds do), a
/// fraction of a second apart: one change, one piece, with the fuller of the two tags.
@Suite struct RecorderTitleTests {
    @Test(arguments: [true, false])
    func oneChangeToldTwiceIsOnePiece(icyFirst: Bool) throws {
        let folder = try makeTemporaryFolder("recorder-title")
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("record/cbr.mp3")))
        let tagged = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("tags-id3v24.mp3")))
        // The ID3v2 tag at the head of the tagged fixture: a 10-byte header and a syncsafe size (ID3v2.4 §3.1).
        let tagLength = 10 + tagged[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let offsets = try Self.packetOffsets(audio)
        // The in-band tag goes in front of the packet at 5.2 s, the ICY title 8 packets (0.2 s) from it.
        let (tagPacket, icyPacket) = (199, icyFirst ? 191 : 207)
        let tagOffset = Int(offsets[tagPacket])
        let input = Array(audio[..<tagOffset]) + tagged[..<tagLength] + audio[tagOffset...]
        let icyOffset = offsets[icyPacket] + (icyFirst ? 0 : Int64(tagLength))

        let recorder = StreamRecorder(
            settings: RecordingSettings(template: try PieceNameTemplate(folder.path + "/{n}.mp3"), stream: "s",
                                        splitOnTitle: true),
            clockOrigin: 0)
        var pieces: [RecordedPiece] = []
        recorder.finished = { pieces.append($0) }
        recorder.failed = { Issue.record("\($0)") }
        var icy = NormalizedTags()
        icy.title = "Someone - Something"
        recorder.noteTags(icy, at: icyOffset)
        let stream = try AudioFileStream(fileTypeHint: nil) { recorder.handle($0) }
        try stream.parse(input)
        try stream.finish()
        recorder.finish()

        try #require(pieces.count == 2, "\(pieces.map { ($0.path, $0.duration, $0.title) })")
        let expected = try RecorderFilesTests.ffprobeTags(Fixtures.directory.appendingPathComponent("tags-id3v24.mp3").path)
        let tags = try RecorderFilesTests.ffprobeTags(pieces[1].path)
        #expect(tags["title"] == expected["title"] && tags["album"] == expected["album"], "\(tags)")
        // The piece begins where the first of the two told the change, and lasts to the end.
        let first = min(tagPacket, icyPacket)
        #expect(pieces[0].packets == first)
        // ffmpeg's decodes, gapless: the two pieces joined are the whole.
        let whole = try FFmpegTool.decode(Fixtures.directory.appendingPathComponent("record/cbr.mp3").path)
        let joined = try FFmpegTool.decode(pieces[0].path) + FFmpegTool.decode(pieces[1].path)
        #expect(joined.count == whole.count)
        #expect(joined == whole, "the pieces joined differ from the whole")
    }

    /// The stream offset of each packet of `bytes`.
    static func packetOffsets(_ bytes: [UInt8]) throws -> [Int64] {
        var offsets: [Int64] = []
        let stream = try AudioFileStream(fileTypeHint: nil) { event in
            if case .packets(let batch) = event { offsets += batch.packets.map(\.offset) }
        }
        try stream.parse(bytes)
        try stream.finish()
        return offsets
    }
}
