import FixtureSupport
import Foundation
import Testing

/// `audiostream tags … -o OUT` on files laid out unusually, made here from fixtures by a few lines of Python: the
/// audio stays what ffmpeg decoded before, and every tag is kept.
@Suite struct TagsEditOddFileTests {
    /// An AIFF with a second ID3 chunk (album and composer): the edit applies to each, and mutagen, which reads the
    /// first, finds every tag of it but the title set.
    @Test func aiffWithTwoID3Chunks() throws {
        let folder = try makeTemporaryFolder("tags-two-id3")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.aiff").path
        let output = folder.appendingPathComponent("out.aiff").path
        _ = try FFmpegTool.run("python3", ["-c", """
            import struct, sys
            data = open(sys.argv[1], "rb").read()
            frames = b"".join(kind + struct.pack(">I", len(text) + 1) + b"\\0\\0\\3" + text
                              for kind, text in [(b"TALB", b"Second Album"), (b"TCOM", b"Second Composer")])
            tag = b"ID3\\4\\0\\0" + bytes([0, 0, len(frames) >> 7, len(frames) & 127]) + frames
            data += b"ID3 " + struct.pack(">I", len(tag)) + tag + b"\\0" * (len(tag) % 2)
            open(sys.argv[2], "wb").write(data[:4] + struct.pack(">I", len(data) - 8) + data[8:])
            """, AudiostreamRunner.fixture("pcm/aiff-id3.aiff"), input])
        let result = try AudiostreamRunner.run(["tags", input, "--set", "title=Ünï", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        var expected = try TagsEditCommandTests.mutagen(input).tags
        #expect(expected["TALB"] != nil && expected["TCOM"] == nil, "mutagen reads the first ID3 chunk")
        expected["TIT2"] = ["Ünï"]
        #expect(try TagsEditCommandTests.mutagen(output).tags.mapValues(String.init(describing:))
            == expected.mapValues(String.init(describing:)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).range(of: Data("Second Composer".utf8)) != nil)
        try TagsEditCommandTests.expectSamePackets(input, output)
    }

    /// The media data stays in the file, mapped, rather than copied into memory: an M4A with a 100 MiB `free` box
    /// after its audio is edited under a 64 MiB limit on the data memory, as the input is not copied whole.
    @Test func largeMediaDataIsNotCopied() throws {
        let folder = try makeTemporaryFolder("tags-large")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("large.m4a")
        let fixture = try Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("mp4/aac-tagged.m4a")))
        let free = 100 << 20
        try (fixture + [UInt8(free >> 24), UInt8(free >> 16 & 0xFF), 0, 0] + Data("free".utf8)).write(to: input)
        let handle = try FileHandle(forWritingTo: input)
        try handle.truncate(atOffset: UInt64(fixture.count + free))
        try handle.close()
        let output = folder.appendingPathComponent("out.m4a").path
        let result = try FFmpegTool.runToEnd("prlimit", ["--data=\(64 << 20)", AudiostreamRunner.executable.path,
                                                         "tags", input.path, "--set", "title=Ünï", "-o", output])
        try #require(result.status == 0, "\(result.errors)")
        #expect(try TagsEditCommandTests.mutagen(output).tags["\u{A9}nam"].map(String.init(describing:)) == "[\"Ünï\"]")
    }
}
