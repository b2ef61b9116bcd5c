import FixtureSupport
import Foundation
import Testing

/// `audiostream tags … -o OUT` on files laid out unusually, made here from fixtures by a few lines of Python: the
/// audio stays what ffmpeg decoded before, and every tag is kept.
@Suite struct TagsEditOddFileTests {
    /// Rewrites the movie of an M4A (`mp4/aac-tagged.m4a`: ftyp, then moov, then the media data) in Python, moving
    /// its chunk offsets by what the movie grew: `sys.argv[3]` is the Python expression of the new movie from its
    /// children (`body`).
    static let movieRewrite = """
        import struct, sys
        data = open(sys.argv[1], "rb").read()
        start = 28
        size = struct.unpack(">I", data[start:start + 4])[0]
        body = bytearray(data[start + 8:start + size])
        extra = b"udta" + struct.pack(">I", 12) + b"name" + b"Kept"
        moov = eval(sys.argv[3])
        def move(box, end, by):
            while box < end:
                length, kind = struct.unpack(">I4s", body[box:box + 8])
                if kind in (b"trak", b"mdia", b"minf", b"stbl"):
                    move(box + 8, box + length, by)
                if kind == b"stco":
                    count = struct.unpack(">I", body[box + 12:box + 16])[0]
                    for entry in range(box + 16, box + 16 + 4 * count, 4):
                        offset = struct.unpack(">I", body[entry:entry + 4])[0]
                        body[entry:entry + 4] = struct.pack(">I", offset + by)
                box += length
        move(0, len(body), len(moov) - size)
        moov = eval(sys.argv[3])
        open(sys.argv[2], "wb").write(data[:start] + moov + data[start + size:])
        """

    /// A movie box with a 64-bit size, and one with a second `udta`: the chunk offsets still point at the audio.
    @Test(arguments: [
        ("64-bit size", #"struct.pack(">I4sQ", 1, b"moov", 16 + len(body)) + body"#),
        ("second udta", #"struct.pack(">I4s", 8 + len(body) + 20, b"moov") + body + struct.pack(">I", 20) + extra"#),
    ])
    func movieLayouts(_ name: String, movie: String) throws {
        let folder = try makeTemporaryFolder("tags-movie")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.m4a").path
        let output = folder.appendingPathComponent("out.m4a").path
        _ = try FFmpegTool.run("python3", ["-c", Self.movieRewrite, AudiostreamRunner.fixture("mp4/aac-tagged.m4a"), input, movie])
        let decoded = try Self.decoded(input)
        #expect(try decoded == Self.decoded(AudiostreamRunner.fixture("mp4/aac-tagged.m4a")), "\(name): not the fixture's audio")
        let result = try AudiostreamRunner.run(["tags", input, "--set", "title=Ünï", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(try Self.decoded(output) == decoded, "\(name)")
        var expected = try TagsEditCommandTests.mutagen(input).tags
        expected["\u{A9}nam"] = ["Ünï"]
        #expect(try TagsEditCommandTests.mutagen(output).tags.mapValues(String.init(describing:))
            == expected.mapValues(String.init(describing:)), "\(name)")
        if name == "second udta" {
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)).range(of: Data("nameKept".utf8)) != nil)
        }
    }

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

    /// A WAVE with an ID3v1 tag after its RIFF form, outside the size the form states: the bytes after the form
    /// are copied after it, not read as a chunk.
    @Test func bytesAfterTheRIFFForm() throws {
        let folder = try makeTemporaryFolder("tags-after-form")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav")
        let output = folder.appendingPathComponent("out.wav").path
        let trailer = Data("TAG".utf8 + Array("Trailer Title".utf8) + [UInt8](repeating: 0, count: 111) + [255])
        try (Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("pcm/wav-info.wav"))) + trailer).write(to: input)
        let result = try AudiostreamRunner.run(["tags", input.path, "--set", "title=Ünï", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        let title = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", output])
        #expect(String(decoding: title.output, as: UTF8.self) == "Ünï\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).suffix(128) == trailer)
        try TagsEditCommandTests.expectSamePackets(input.path, output)
    }

    /// An MP3 with an ID3v1 trailer: keys removed are gone from it too, and a key set is read from the ID3v2 tag
    /// made (mutagen takes from the trailer what the ID3v2 tag lacks).
    @Test func id3v1Trailer() throws {
        let folder = try makeTemporaryFolder("tags-id3v1")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = AudiostreamRunner.fixture("tags-id3v1.mp3")
        let output = folder.appendingPathComponent("out.mp3").path
        let result = try AudiostreamRunner.run(["tags", input, "--remove", "title", "comments", "--set", "artist=Ünï",
                                                "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        var expected = try TagsEditCommandTests.mutagen(input).tags
        #expect(expected.removeValue(forKey: "TIT2") != nil && expected.removeValue(forKey: "COMM:ID3v1 Comment:eng") != nil)
        expected["TPE1"] = ["Ünï"]
        #expect(try TagsEditCommandTests.mutagen(output).tags.mapValues(String.init(describing:))
            == expected.mapValues(String.init(describing:)))
        try TagsEditCommandTests.expectSamePackets(input, output)
    }

    /// An ID3v2.3 tag flagged as having an extended header that it lacks (its size would run past the tag): the
    /// edit is refused rather than made of a tag whose frames were not read, which would drop them all.
    @Test func anExtendedHeaderPastTheTag() throws {
        let folder = try makeTemporaryFolder("tags-extended-header")
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("tags-id3v23.mp3")))
        bytes[5] |= 0x40
        let input = folder.appendingPathComponent("in.mp3")
        try bytes.write(to: input)
        let result = try AudiostreamRunner.run(["tags", input.path, "--set", "title=Ünï", "-o", folder.path + "/out.mp3"])
        #expect(result.status == 1 && result.standardError.contains("the ID3v2 extended header runs past its tag"),
                "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in.mp3"])
    }

    /// A Vorbis comment's name is ASCII (Vorbis I §5.2.3.1): one that is not is refused, with nothing written.
    @Test func aVorbisNameNotASCII() throws {
        let folder = try makeTemporaryFolder("tags-vorbis-name")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.run(["tags", AudiostreamRunner.fixture("flac-tags-picture.flac"),
                                                "--set", "vorbis:STIMMUNG_Ä=x", "-o", folder.path + "/out.flac"])
        #expect(result.status == 1 && result.standardError.contains("vorbis:STIMMUNG_Ä is not a comment's name"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
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

    /// ffmpeg's decode of `path`, whatever errors it meets.
    static func decoded(_ path: String) throws -> Data {
        try FFmpegTool.runToEnd("ffmpeg", ["-v", "error", "-i", path, "-f", "s16le", "-"]).output
    }

    /// `-o INPUT` replaces the file with one that only its owner may read, as before.
    @Test func replacingKeepsThePermissions() throws {
        let folder = try makeTemporaryFolder("tags-mode")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("private.mp3").path
        try FileManager.default.copyItem(atPath: AudiostreamRunner.fixture("tags-id3v24.mp3"), toPath: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let result = try AudiostreamRunner.run(["tags", file, "--set", "title=Ünï", "-o", file])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(try TagsEditCommandTests.mutagen(file).tags["TIT2"].map(String.init(describing:)) == "[\"Ünï\"]")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
    }
}

/// The editor reads a tag's structure with the parser's own readers: an `ID3` header the parser reads no tag in
/// (ID3v2.4 §3.1: a revision of 0xFF, a size byte with its top bit set) is refused, not rewritten as a tag.
@Suite struct TagsEditRefusalTests {
    @Test(arguments: [(4, UInt8(0xFF)), (7, UInt8(0x80))])
    func anID3HeaderThatIsNoTagIsRefused(_ offset: Int, _ value: UInt8) throws {
        let folder = try makeTemporaryFolder("tags-refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](try Data(contentsOf: AudiostreamRunner.fixtures.appendingPathComponent("tags-id3v24.mp3")))
        bytes[offset] = value
        let input = folder.appendingPathComponent("odd.mp3")
        try Data(bytes).write(to: input)
        // The parser finds no ID3v2 tag there.
        let events = try AudiostreamRunner.run(["events", input.path])
        #expect(!events.standardOutput.contains(#""source":"id3v2"#))
        let output = folder.appendingPathComponent("out.mp3").path
        let result = try AudiostreamRunner.run(["tags", input.path, "--set", "title=x", "-o", output])
        #expect(result.status != 0)
        #expect(result.standardError.contains("ID3v2 header whose version, revision or size is not valid"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// An APEv2 tag at the end of an MP3 (before an ID3v1 trailer) is edited as the trailer is: the items of the keys
/// named go, the others stay byte for byte (its album survived `--remove album`, and readers of APE took it).
@Suite struct TagsEditAPEv2Tests {
    static func apeItems(_ path: String) throws -> [String: String] {
        let script = "import json, sys, mutagen.apev2\n"
            + "print(json.dumps({k: str(v) for k, v in mutagen.apev2.APEv2(sys.argv[1]).items()}))"
        let output = try FFmpegTool.run("python3", ["-c", script, path]).output
        return try JSONSerialization.jsonObject(with: output) as? [String: String] ?? [:]
    }

    @Test(arguments: ["tags-apev2.mp3", "tags-id3v24-and-v1-and-ape.mp3"])
    func aKeyRemovedGoesFromTheAPEv2Tag(_ fixture: String) throws {
        let folder = try makeTemporaryFolder("tags-ape")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = AudiostreamRunner.fixture(fixture)
        let output = folder.appendingPathComponent("out.mp3").path
        let result = try AudiostreamRunner.run(["tags", input, "--remove", "album", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        var expected = try Self.apeItems(input)
        #expect(expected.removeValue(forKey: "Album") != nil)
        #expect(try Self.apeItems(output) == expected)
        try TagsEditCommandTests.expectSamePackets(input, output)
    }
}
