import FixtureSupport
import Foundation
import Testing

/// `audiostream cut`: each 12 s fixture cut at 5.25–11.5 s decodes (ffmpeg) to what `atrim` makes of the whole's
/// decode, frames round(5.25 × rate) to round(11.5 × rate).
@Suite struct CutCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        enum Match: Sendable {
            case identical
            /// Opus' decoder state, which a lead-in only brings close (`DecoderLeadIn`).
            case within(Float)
            /// The container states no trims: OUT's packets are a run of the whole's, holding the range.
            case packets
            /// libvorbis' decode (oggdec) is the range of its decode of the whole: ffmpeg 5.1 honours no start
            /// trim of Ogg Vorbis (the first page's granule position, Vorbis I §A.2).
            case oggdec
        }

        let fixture: String
        let match: Match
        /// The range cut, in seconds: 5.25–11.5 of the 12 s record fixtures.
        var range = (from: "5.25", to: "00:00:11.500")
        var testDescription: String { fixture }
    }

    static let cases = [
        Case(fixture: "cbr.mp3", match: .identical),
        Case(fixture: "vbr.mp3", match: .identical),
        Case(fixture: "aac.m4a", match: .identical),
        Case(fixture: "opus.opus", match: .within(1e-4)),
        Case(fixture: "vorbis.ogg", match: .oggdec),
        Case(fixture: "pcm.wav", match: .identical),
        // The frames the range splits are made anew (VERBATIM subframes): flac --test checks them and the MD5.
        Case(fixture: "flac.flac", match: .identical),
        Case(fixture: "../flac-48k-24bit.flac", match: .identical, range: ("0.1", "0.3")),
        Case(fixture: "aac.aac", match: .packets),
        Case(fixture: "../mp4/alac.m4a", match: .identical, range: ("0.25", "0.75")),
    ]

    @Test func casesCoverEveryCodec() {
        #expect(Self.cases.count == 10)
    }

    @Test(arguments: cases)
    func cutDecodesToTheRange(_ test: Case) throws {
        let folder = try makeTemporaryFolder("cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture(test.fixture)
        let output = folder.appendingPathComponent("cut." + test.fixture.split(separator: ".").last!).path
        let result = try AudiostreamRunner.run(["cut", source, "--from", test.range.from, "--to", test.range.to, "-o", output])
        try #require(result.status == 0, "\(result.standardError)")
        let rate = Double(try FFmpegTool.sampleRate(source))
        let channels = try FFmpegTool.channels(source)
        let seconds = [test.range.from, test.range.to].map { $0.split(separator: ":").reduce(0.0) { $0 * 60 + Double($1)! } }
        let (start, end) = (Int((seconds[0] * rate).rounded()), Int((seconds[1] * rate).rounded()))
        let samples = try FFmpegTool.decode(output)
        switch test.match {
        case .packets:
            #expect(result.standardError.contains("states no trims"), "\(result.standardError)")
            let whole = try FFmpegTool.packetHashes(source)
            let cut = try FFmpegTool.packetHashes(output)
            let first = try #require(whole.firstIndex(of: cut[0]))
            #expect(Array(whole[first..<first + cut.count]) == cut)
            return
        case .oggdec:
            #expect(result.standardError.isEmpty, "\(result.standardError)")
            let cut = try Self.oggdec(output)
            let whole = try Self.oggdec(source)
            #expect(cut == Array(whole[start * channels..<end * channels]))
            return
        case .identical, .within:
            #expect(result.standardError.isEmpty, "\(result.standardError)")
            if output.hasSuffix(".flac") { _ = try FFmpegTool.run("flac", ["--test", "--silent", output]) }
        }
        let reference = try FFmpegTool.run("ffmpeg", [
            "-v", "error", "-i", source, "-af", "atrim=start_sample=\(start):end_sample=\(end)", "-f", "f32le", "-",
        ]).output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(reference.count == (end - start) * channels)
        var decoded = samples
        if test.fixture.hasSuffix(".m4a") {
            // ffmpeg 5.1 honours an edit list's end only to the packet (RecordCommandTests): the frames stated
            // are ffprobe's, and the decode holds them and less than a packet more.
            #expect(Int(try FFmpegTool.streamEntry("duration_ts", of: output)) == end - start)
            let packetFrames = test.fixture.hasSuffix("alac.m4a") ? 4096 : 1024
            #expect((0..<packetFrames * channels).contains(decoded.count - reference.count))
            decoded = Array(decoded.prefix(reference.count))
        }
        #expect(decoded.count == reference.count)
        switch test.match {
        case .identical:
            #expect(decoded == reference)
        case .within(let error):
            let difference = zip(decoded, reference).map { abs($0 - $1) }.max() ?? 1
            #expect(difference <= error, "largest difference \(difference)")
        case .packets, .oggdec:
            break
        }
    }

    /// A file cut short before its first packet: cut, concat and tags -o fail as probe does, writing nothing.
    @Test func aTruncatedFile() throws {
        let folder = try makeTemporaryFolder("cut-truncated")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("short.m4a").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("mp4/aac-tagged.m4a")))
        try bytes.prefix(3000).write(to: URL(fileURLWithPath: input))
        let probe = try AudiostreamRunner.run(["probe", input])
        #expect(probe.status == 1 && probe.standardError.contains("no whole audio packet"), "\(probe.standardError)")
        for command in [["cut", input, "--to", "1"], ["concat", input, input], ["tags", input, "--set", "title=x"]] {
            let result = try AudiostreamRunner.run(command + ["-o", folder.path + "/out.m4a"])
            #expect(result.status == 1 && result.standardError == probe.standardError, "\(command[0]): \(result.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["short.m4a"])
    }

    /// A picture larger than the 4 MiB the parser keeps by default is carried whole into a cut and a join.
    @Test func largeArtworkIsKept() throws {
        let folder = try makeTemporaryFolder("cut-artwork")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.mp3").path
        try FileManager.default.copyItem(atPath: RecordCommandTests.fixture("cbr.mp3"), toPath: input)
        let picture = "b'\\x89PNG\\r\\n\\x1a\\n' + bytes(range(256)) * (5 << 12)"
        _ = try FFmpegTool.run("python3", ["-c", """
            import sys
            from mutagen.id3 import ID3, APIC
            tags = ID3()
            tags.add(APIC(encoding=3, mime="image/png", type=3, desc="", data=\(picture)))
            tags.save(sys.argv[1])
            """, input])
        for command in [["cut", input, "--from", "1", "--to", "2"], ["concat", input, input]] {
            let output = folder.appendingPathComponent("\(command[0]).mp3").path
            let result = try AudiostreamRunner.run(command + ["-o", output])
            try #require(result.status == 0, "\(result.standardError)")
            let check = try FFmpegTool.run("python3", ["-c", """
                import sys, mutagen
                tags = mutagen.File(sys.argv[1]).tags
                print([p.data == \(picture) for p in (tags.getall("APIC") if tags else [])])
                """, output]).output
            #expect(String(decoding: check, as: UTF8.self) == "[True]\n", "\(command[0])")
        }
    }

    /// Ctrl-C while the input is read leaves nothing: no OUT, no `.part`.
    @Test func anInterruptLeavesNoFile() throws {
        let folder = try makeTemporaryFolder("cut-interrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.interrupt(["cut", "-", "--from", "1", "-o", folder.path + "/out.mp3"],
                                                     once: folder.path + "/out.mp3.part")
        #expect(result.status == 1)
        #expect(result.standardError.contains("interrupted"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// libvorbis' decode of `path`, as 16-bit samples.
    static func oggdec(_ path: String) throws -> [Int16] {
        try FFmpegTool.run("oggdec", ["--quiet", "--raw", "--output", "-", path]).output
            .withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Bad ranges and unreadable input: one line on standard error, nothing written.
    @Test(arguments: [
        (["--from", "20"], "--from 20.0 s is past the end of the audio"),
        (["--from", "2", "--to", "30"], "--to 30.0 s is past the end of the audio"),
        (["--from", "8", "--to", "6"], "--from 8.0 s is not before --to 6.0 s"),
        (["--from", "1:75"], "--from"),
        // An omitted --from is the start; times past any Int64 count of frames are past the end.
        (["--to", "0"], "--from 0.0 s is not before --to 0.0 s"),
        (["--from", "100000000000000000000"], "--from 1e+20 s is past the end of the audio"),
        (["--from", "1", "--to", "100000000000000000000"], "--to 1e+20 s is past the end of the audio"),
    ])
    func refusals(_ options: [String], message: String) throws {
        let folder = try makeTemporaryFolder("cut-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        // OUT's folder is made for it, and removed with it.
        let result = try AudiostreamRunner.run(["cut", RecordCommandTests.fixture("cbr.mp3")] + options
            + ["-o", folder.appendingPathComponent("new/out.mp3").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// An MP4 whose index follows its audio cannot be cut from a pipe: the error `probe` gives.
    @Test func moovAtEndFromAPipe() throws {
        let folder = try makeTemporaryFolder("cut-pipe")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("mp4/aac-lc-moov-at-end.m4a")))
        let probe = try AudiostreamRunner.run(["probe", "-"], standardInput: input)
        let cut = try AudiostreamRunner.run(["cut", "-", "--to", "1", "-o", folder.path + "/out.m4a"], standardInput: input)
        #expect(probe.status != 0 && cut.status != 0)
        #expect(!probe.standardError.isEmpty && cut.standardError == probe.standardError)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
