import FixtureSupport
import Foundation
import Testing

/// `audiostream tags INPUT --set … -o OUT`: mutagen reads back what was set and every other tag as it was, and
/// `audiostream packets` finds the input's packets, byte for byte, in OUT.
@Suite struct TagsEditCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: String
        /// mutagen's keys for title, artist and album in this file's key space.
        let keys: [String]
        /// The ID3 version mutagen must find in OUT, for ID3 files.
        var id3Version: Int?

        var testDescription: String { fixture }
    }

    static let id3 = ["TIT2", "TPE1", "TALB"]
    static let vorbis = ["title", "artist", "album"]
    static let cases = [
        Case(fixture: "tags-id3v23.mp3", keys: id3, id3Version: 3),
        Case(fixture: "tags-id3v24.mp3", keys: id3, id3Version: 4),
        Case(fixture: "record/cbr.mp3", keys: id3, id3Version: 4),
        Case(fixture: "adts-id3v24.aac", keys: id3, id3Version: 4),
        Case(fixture: "mp4/aac-tagged.m4a", keys: ["\u{A9}nam", "\u{A9}ART", "\u{A9}alb"]),
        Case(fixture: "record/aac.m4a", keys: ["\u{A9}nam", "\u{A9}ART", "\u{A9}alb"]),
        // Fragmented: each fragment's base data offset counts from the file's start, and moves with the movie.
        Case(fixture: "mp4/aac-fragmented.mp4", keys: ["\u{A9}nam", "\u{A9}ART", "\u{A9}alb"]),
        Case(fixture: "ogg/ogg-opus-tags.opus", keys: vorbis),
        Case(fixture: "ogg/ogg-vorbis-tags.ogg", keys: vorbis),
        Case(fixture: "ogg/ogg-flac-44k-stereo.oga", keys: vorbis),
        Case(fixture: "flac-tags-picture.flac", keys: vorbis),
        Case(fixture: "pcm/wav-id3.wav", keys: id3, id3Version: 3),
        Case(fixture: "pcm/wav-info.wav", keys: id3, id3Version: 4),
        Case(fixture: "pcm/aiff-id3.aiff", keys: id3, id3Version: 3),
    ]

    static let values = ["夜の歌 — Ночь", "Åsa Ωmega", "مرحبا Album"]

    @Test(arguments: cases)
    func setKeepsEveryOtherTagAndThePackets(_ test: Case) throws {
        let folder = try makeTemporaryFolder("tags-edit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = AudiostreamRunner.fixture(test.fixture)
        let output = folder.appendingPathComponent("out." + (test.fixture.split(separator: ".").last ?? "")).path
        let settings = zip(["title", "artist", "album"], Self.values).map { "\($0)=\($1)" }
        let result = try AudiostreamRunner.run(["tags", input, "--set"] + settings + ["-o", output])
        try #require(result.status == 0, "\(result.standardError)")

        let before = try Self.mutagen(input)
        let after = try Self.mutagen(output)
        var expected = before.tags
        for (key, value) in zip(test.keys, Self.values) { expected[key] = [value] }
        #expect(after.tags.mapValues(String.init(describing:)) == expected.mapValues(String.init(describing:)))
        if let version = test.id3Version { #expect(after.version == version) }
        try Self.expectSamePackets(input, output)
    }

    /// `--set KEY=` with nothing after `=` removes the key in every key space alike: ID3v2 and RIFF INFO hold no
    /// empty text, and Vorbis comments and iTunes items were given an empty one.
    @Test(arguments: cases)
    func anEmptyValueRemovesTheKey(_ test: Case) throws {
        let folder = try makeTemporaryFolder("tags-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = AudiostreamRunner.fixture(test.fixture)
        let output = folder.appendingPathComponent("out." + (test.fixture.split(separator: ".").last ?? "")).path
        let result = try AudiostreamRunner.run(["tags", input, "--set", "title=", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        var expected = try Self.mutagen(input).tags
        expected[test.keys[0]] = nil
        #expect(try Self.mutagen(output).tags.mapValues(String.init(describing:))
            == expected.mapValues(String.init(describing:)))
    }

    /// Raw keys of each key space are set and removed; common keys removed leave the others.
    @Test(arguments: [
        ("tags-id3v23.mp3", ["id3:TXXX:MOOD=Calm ☕", "id3:TPUB=Label"], ["id3:TCON", "id3:COMM"],
         ["TXXX:MOOD": ["Calm ☕"], "TPUB": ["Label"]], ["TCON", "COMM::deu"]),
                // The genre is an ID3 number (gnre), which mutagen reads as ©gen.
        ("mp4/aac-tagged.m4a", ["itunes:----:com.apple.iTunes:MOOD=Bright"], ["genre", "itunes:cpil"],
         ["----:com.apple.iTunes:MOOD": "[MP4FreeForm(b'Bright', <AtomDataType.UTF8: 1>)]"], ["\u{A9}gen", "cpil"]),
        ("ogg/ogg-vorbis-tags.ogg", ["vorbis:MOOD=Calm"], ["vorbis:CUSTOM", "trackNumber"],
         ["mood": ["Calm"]], ["custom", "tracknumber"]),
    ] as [(String, [String], [String], [String: any Sendable], [String])])
    func rawKeys(_ fixture: String, set: [String], remove: [String], added: [String: any Sendable], gone: [String]) throws {
        let folder = try makeTemporaryFolder("tags-raw")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = AudiostreamRunner.fixture(fixture)
        let output = folder.appendingPathComponent("out." + (fixture.split(separator: ".").last ?? "")).path
        let result = try AudiostreamRunner.run(["tags", input, "--set"] + set + ["--remove"] + remove + ["-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        var expected = try Self.mutagen(input).tags
        for key in gone { #expect(expected.removeValue(forKey: key) != nil, "\(key) was not in the input") }
        expected.merge(added) { $1 }
        #expect(try Self.mutagen(output).tags.mapValues(String.init(describing:)) == expected.mapValues(String.init(describing:)))
    }

    /// `-o INPUT` replaces the file; a picture set replaces every picture.
    @Test func replacesTheInputAndItsArtwork() throws {
        let folder = try makeTemporaryFolder("tags-replace")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file.flac").path
        try FileManager.default.copyItem(atPath: AudiostreamRunner.fixture("flac-tags-picture.flac"), toPath: file)
        let picture = folder.appendingPathComponent("cover.png")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 40)
        try Data(png).write(to: picture)
        let result = try AudiostreamRunner.run(["tags", file, "--set", "title=Neu", "--artwork", picture.path, "-o", file])
        try #require(result.status == 0, "\(result.standardError)")
        let check = try FFmpegTool.run("python3", ["-c", """
            import sys, mutagen
            f = mutagen.File(sys.argv[1])
            print(f["title"][0], [(p.type, p.mime, p.data == open(sys.argv[2], "rb").read()) for p in f.pictures])
            """, file, picture.path]).output
        #expect(String(decoding: check, as: UTF8.self) == "Neu [(3, 'image/png', True)]\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["cover.png", "file.flac"])
    }

    /// ffprobe reads the title from WAVE's LIST/INFO chunk, which mutagen does not read.
    @Test func waveInfo() throws {
        let folder = try makeTemporaryFolder("tags-info")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.wav").path
        let result = try AudiostreamRunner.run(["tags", AudiostreamRunner.fixture("pcm/wav-info.wav"), "--set", "title=Ünï", "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        let tags = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", output]).output
        let object = try JSONSerialization.jsonObject(with: tags) as! [String: Any]
        let format = try #require((object["format"] as? [String: Any])?["tags"] as? [String: String])
        let before = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json",
                                                    AudiostreamRunner.fixture("pcm/wav-info.wav")]).output
        var expected = ((try JSONSerialization.jsonObject(with: before) as! [String: Any])["format"] as! [String: Any])["tags"] as! [String: String]
        expected["title"] = "Ünï"
        #expect(format == expected)
    }

    /// Bad input: nothing is written, and the reason is one line.
    @Test(arguments: [
        (["--set", "vorbis:MOOD=x"], "MPEG audio and ADTS tags are id3:"),
        (["--set", "nosuchkey=x"], "unknown tag key 'nosuchkey'"),
        (["--set", "trackNumber=three"], "trackNumber takes a number, not 'three'"),
        (["--set", "id3:Tab!=x"], "id3:Tab!: a frame id is four characters of A-Z and 0-9"),
    ])
    func refusals(_ options: [String], message: String) throws {
        let folder = try makeTemporaryFolder("tags-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.mp3").path
        let result = try AudiostreamRunner.run(["tags", AudiostreamRunner.fixture("tags-id3v23.mp3")] + options + ["-o", output])
        #expect(result.status != 0)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// What mutagen reads of `path` (Tests/Fixtures/mutagen_tags.py).
    static func mutagen(_ path: String) throws -> (version: Int?, tags: [String: any Sendable]) {
        let script = Fixtures.directory.appendingPathComponent("mutagen_tags.py").path
        let output = try FFmpegTool.run("python3", [script, path]).output
        let object = try JSONSerialization.jsonObject(with: output) as! [String: Any]
        let tags = (object["tags"] as! [String: Any]).mapValues { value -> any Sendable in
            (value as? [String]) ?? String(describing: value)
        }
        return (object["version"] as? Int, tags)
    }

    /// The packets `audiostream packets` finds in both files hold the same bytes, in the same order.
    static func expectSamePackets(_ input: String, _ output: String) throws {
        func packets(_ path: String) throws -> [[UInt8]] {
            let rows = try AudiostreamRunner.run(["packets", path]).lines.dropFirst()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            return rows.map { row in
                let fields = row.split(separator: ",").map { Int($0)! }
                return Array(bytes[fields[0]..<fields[0] + fields[1]])
            }
        }
        let before = try packets(input)
        #expect(!before.isEmpty)
        #expect(try packets(output) == before)
    }
}
