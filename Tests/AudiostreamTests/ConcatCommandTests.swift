import FixtureSupport
import Foundation
import Testing

/// `audiostream concat`: two cuts of a 12 s fixture, [0, 7) and [7, end), joined back, decode to the whole: the
/// lead-in the second begins with repeats the end of the first, and is dropped. Files that do not follow each
/// other keep the padding and priming the note reports at the join.
@Suite struct ConcatCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        enum Match: Sendable {
            /// ffmpeg's decode of the join is its decode of the whole.
            case whole
            /// libvorbis' decode (oggdec) of the join is its decode of the whole: ffmpeg honours no Vorbis start trim.
            case oggdec
            /// libopus' decode (opusdec, at 48 kHz) of the join is within 1e-6 of its decode of the whole.
            case opusdec
        }

        let fixture: String
        let match: Match
        var testDescription: String { fixture }
    }

    static let cases = [
        Case(fixture: "pcm.wav", match: .whole),
        Case(fixture: "flac.flac", match: .whole),
        Case(fixture: "aac.m4a", match: .whole),
        Case(fixture: "vorbis.ogg", match: .oggdec),
        Case(fixture: "opus.opus", match: .opusdec),
        Case(fixture: "cbr.mp3", match: .whole),
        Case(fixture: "vbr.mp3", match: .whole),
        // Cut in whole packets, the two share the one holding 7 s.
        Case(fixture: "aac.aac", match: .whole),
        Case(fixture: "l2.mp2", match: .whole),
    ]

    @Test func casesCoverEveryCodecAndContainer() {
        #expect(Self.cases.count == 9)
    }

    @Test(arguments: cases)
    func cutsJoinBackIntoTheWhole(_ test: Case) throws {
        let folder = try makeTemporaryFolder("concat")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture(test.fixture)
        let ext = String(test.fixture.split(separator: ".").last!)
        let paths = ["a", "b", "joined"].map { folder.appendingPathComponent("\($0).\(ext)").path }
        let (first, second, joined) = (paths[0], paths[1], paths[2])
        for (options, path) in [(["--to", "7"], first), (["--from", "7"], second)] {
            let cut = try AudiostreamRunner.run(["cut", source] + options + ["-o", path])
            try #require(cut.status == 0, "\(cut.standardError)")
        }
        let result = try AudiostreamRunner.run(["concat", first, second, "-o", joined])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        switch test.match {
        case .whole:
            #expect(try FFmpegTool.decode(joined) == FFmpegTool.decode(source))
            if ext == "flac" { _ = try FFmpegTool.run("flac", ["--test", "--silent", joined]) }
        case .oggdec:
            #expect(try CutCommandTests.oggdec(joined) == CutCommandTests.oggdec(source))
        case .opusdec:
            let (decoded, whole) = (try Self.opusdec(joined), try Self.opusdec(source))
            try #require(decoded.count == whole.count)
            #expect(zip(decoded, whole).map { abs($0 - $1) }.max()! <= 1e-6)
        }
    }

    /// The join of two M4A cuts has an edit per part; our reader plays each edit exactly: `probe` says the length
    /// ffprobe says, and `decode` gives ffmpeg's samples for that length.
    @Test func ourReaderPlaysEveryEditOfAnM4AJoin() throws {
        let folder = try makeTemporaryFolder("concat-edits")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture("aac.m4a")
        let paths = ["a", "b", "joined"].map { folder.appendingPathComponent("\($0).m4a").path }
        for (options, path) in [(["--to", "7"], paths[0]), (["--from", "7"], paths[1])] {
            try #require(try AudiostreamRunner.run(["cut", source] + options + ["-o", path]).status == 0)
        }
        try #require(try AudiostreamRunner.run(["concat", paths[0], paths[1], "-o", paths[2]]).status == 0)
        let (rate, channels) = (try FFmpegTool.sampleRate(paths[2]), try FFmpegTool.channels(paths[2]))
        let stated = try FFmpegTool.duration(paths[2])
        let probe = try AudiostreamRunner.run(["probe", paths[2]])
        #expect(abs(try #require(probe.object["duration"] as? Double) - stated) < 0.5 / Double(rate))
        let decoded = try AudiostreamRunner.runBinary(["decode", "--raw", "--format", "f32", paths[2]]).output
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(decoded.count == Int((stated * Double(rate)).rounded()) * channels)
        // ffmpeg rounds its edit's end up to a whole packet: ours is its decode up to the stated end.
        #expect(try decoded[...] == FFmpegTool.decode(paths[2]).prefix(decoded.count))
    }

    /// An archive's pieces (split every 3 s) joined back decode to the whole.
    @Test(arguments: ["cbr.mp3", "vbr.mp3", "aac.aac"])
    func piecesJoinBackIntoTheWhole(_ fixture: String) throws {
        let folder = try makeTemporaryFolder("concat-pieces")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture(fixture)
        let ext = String(fixture.split(separator: ".").last!)
        let record = try AudiostreamRunner.run(["record", source, "-o", folder.path + "/{n}.\(ext)", "--every", "3",
                                                "--start-time", "1"])
        try #require(record.status == 0, "\(record.standardError)")
        let pieces = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.path + "/" + $0 }
        try #require(pieces.count == 5)
        let joined = folder.path + "/joined.\(ext)"
        let result = try AudiostreamRunner.run(["concat"] + pieces + ["-o", joined])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(try FFmpegTool.decode(joined) == FFmpegTool.decode(source))
    }

    /// Cuts that do not meet, [0, 7) and [8, end), keep the first's padding and the second's priming at the join,
    /// as many frames as the note says.
    @Test(arguments: ["cbr.mp3", "vbr.mp3"])
    func filesThatDoNotMeetKeepTheReportedJoin(_ fixture: String) throws {
        let folder = try makeTemporaryFolder("concat-gap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture(fixture)
        let (first, second, joined) = (folder.path + "/a.mp3", folder.path + "/b.mp3", folder.path + "/j.mp3")
        for (options, path) in [(["--to", "7"], first), (["--from", "8"], second)] {
            let cut = try AudiostreamRunner.run(["cut", source] + options + ["-o", path])
            try #require(cut.status == 0, "\(cut.standardError)")
        }
        let result = try AudiostreamRunner.run(["concat", first, second, "-o", joined])
        try #require(result.status == 0, "\(result.standardError)")
        let note = try #require(result.standardError.firstMatch(of: #/concat: (\d+) frames of encoder padding/#))
        let frames = Int(note.output.1)!
        let (channels, rate) = (try FFmpegTool.channels(source), try FFmpegTool.sampleRate(source))
        let (decoded, whole) = (try FFmpegTool.decode(joined), try FFmpegTool.decode(source))
        let (before, after) = (7 * rate * channels, whole.count - 8 * rate * channels)
        #expect(frames > 0 && decoded.count == before + frames * channels + after)
        #expect(Array(decoded.prefix(before)) == Array(whole.prefix(before)))
        #expect(Array(decoded.suffix(after)) == Array(whole.suffix(after)))
    }

    /// OUT takes the first input's tags, or those --set names instead.
    @Test(arguments: [([], "Tïtle — v2.4"), (["--set", "title=Neu", "artist=Ана"], "Neu")])
    func tagsComeFromTheFirstInput(_ options: [String], title: String) throws {
        let folder = try makeTemporaryFolder("concat-tags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (input, output) = (AudiostreamRunner.fixture("tags-id3v24.mp3"), folder.path + "/out.mp3")
        let result = try AudiostreamRunner.run(["concat", input, input] + options + ["-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        let tags = try TagsEditCommandTests.mutagen(output).tags
        #expect(tags["TIT2"] as? [String] == [title])
        // The common keys carry several values joined with "; ".
        let artists = try TagsEditCommandTests.mutagen(input).tags["TPE1"] as? [String] ?? []
        #expect(tags["TPE1"] as? [String] == (options.isEmpty ? [artists.joined(separator: "; ")] : ["Ана"]))
    }

    /// Files of another codec or parameters: the first difference named, nothing written.
    @Test(arguments: [
        ("record/l2.mp2", "differs from", "in codec: MP2, not MP3"),
        ("l3-32k-mono.mp3", "differs from", "in sample rate: 32000.0 Hz, not 44100.0 Hz"),
    ])
    func refusesMixedInputs(_ other: String, _ first: String, _ second: String) throws {
        let folder = try makeTemporaryFolder("concat-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.run(["concat", RecordCommandTests.fixture("cbr.mp3"),
                                                AudiostreamRunner.fixture(other), "-o", folder.path + "/out.mp3"])
        #expect(result.status != 0)
        #expect(result.standardError.contains(first) && result.standardError.contains(second), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// libopus' decode of `path` at 48 kHz (opusdec otherwise resamples to the rate the header names).
    static func opusdec(_ path: String) throws -> [Float] {
        try FFmpegTool.run("opusdec", ["--quiet", "--rate", "48000", "--float", "--no-dither", path, "-"]).output
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
