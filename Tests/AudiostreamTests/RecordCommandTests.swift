import FixtureSupport
import Foundation
import Testing

/// `audiostream record`: pieces that ffprobe reads without a warning, whose stated durations are what ffmpeg
/// decodes of them, and which, decoded by ffmpeg and joined, give the whole input's own decode.
@Suite struct RecordCommandTests {
    /// A fixture recorded into pieces of `container`, and how their decodes joined compare with the whole's.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Join: Sendable {
            /// The very samples: the container states the lead-in's and the ends' trims.
            case identical
            /// Within an error, for codecs whose decoders carry state a lead-in only brings close (Opus).
            case within(Float)
            /// The pieces partition the packets (the container states no trims): ffprobe's packets of the pieces,
            /// in order, are the whole's, and so is the sample count.
            case partition
        }

        let fixture: String
        let container: String
        let join: Join

        var testDescription: String { "\(fixture) → .\(container)" }
    }

    static let cases = [
        Case(fixture: "cbr.mp3", container: "mp3", join: .identical),
        Case(fixture: "vbr.mp3", container: "mp3", join: .identical),
        Case(fixture: "aac.m4a", container: "m4a", join: .identical),
        Case(fixture: "aac.aac", container: "aac", join: .partition),
        // 480 ms of lead-in (DecoderLeadIn) leave ffmpeg's Opus decode within −80 dB of the whole's.
        Case(fixture: "opus.opus", container: "opus", join: .within(1e-4)),
        Case(fixture: "vorbis.ogg", container: "ogg", join: .identical),
        Case(fixture: "flac.flac", container: "flac", join: .identical),
        Case(fixture: "pcm.wav", container: "wav", join: .identical),
        Case(fixture: "l2.mp2", container: "mp2", join: .partition),
    ]

    /// 2023-11-14 22:13:20 UTC: a multiple of 5 s, so `--every 5` cuts 12 s at 5 and 10.
    static let start = "1700000000"

    static func fixture(_ name: String) -> String {
        Fixtures.directory.appendingPathComponent("record/\(name)").path
    }

    /// Records `fixture` with `options`; the JSON line of each piece.
    static func record(_ fixture: String, to template: String, _ options: [String]) throws -> [[String: Any]] {
        let result = try AudiostreamRunner.run(
            ["record", Self.fixture(fixture), "-o", template, "--start-time", start] + options)
        #expect(result.status == 0, "\(result.standardError)")
        return result.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    /// ffprobe's warnings about `path`, without what differs from file to file (its name, addresses).
    static func warnings(_ path: String) throws -> String {
        try FFmpegTool.warnings(path).replacing(path, with: "FILE")
            .replacing(#/ @ 0x[0-9a-f]+/#, with: "")
    }


    @Test func casesCoverEveryWrittenCodec() {
        #expect(Self.cases.count == 9)
    }

    @Test(arguments: cases)
    func piecesDecodeAndJoinIntoTheWhole(_ test: Case) throws {
        let folder = try makeTemporaryFolder("record")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Self.fixture(test.fixture)
        let pieces = try Self.record(test.fixture, to: folder.path + "/{n}.\(test.container)", ["--every", "5"])
        try #require(pieces.count == 3)
        let channels = try FFmpegTool.channels(source)
        // Raw streams (MP2, ADTS) make ffprobe estimate their duration, the source as well as the pieces.
        let sourceWarnings = try Self.warnings(source)
        var joined: [Float] = []
        var joinedPackets: [String] = []
        for (index, piece) in pieces.enumerated() {
            let path = try #require(piece["path"] as? String)
            #expect(path == folder.path + "/00\(index + 1).\(test.container)")
            let warnings = try Self.warnings(path)
            #expect(warnings == "" || warnings == sourceWarnings, "\(path): \(warnings)")
            if test.container == "flac" {
                // flac's own test of every frame's CRC and of STREAMINFO's MD5 against the decoded samples.
                _ = try FFmpegTool.run("flac", ["--test", "--silent", path])
            }
            let samples = try FFmpegTool.decode(path)
            let stated = Int((try #require(piece["duration"] as? Double) * Double(try FFmpegTool.sampleRate(path)))
                .rounded())
            if test.container == "m4a" && index == pieces.count - 1 {
                // ffmpeg 5.1 honours an edit list's end only to the packet: its own files decode whole last packets
                // too. The frames stated are ffprobe's, and the decode holds them and less than a packet more.
                #expect(stated == Int(try FFmpegTool.streamEntry("duration_ts", of: path)))
                #expect((0..<1024).contains(samples.count / channels - stated))
            } else {
                #expect(stated == samples.count / channels, "\(path)")
            }
            joined += samples
            joinedPackets += try FFmpegTool.packetHashes(path)
        }
        let whole = try FFmpegTool.decode(source)
        #expect(joined.count == whole.count)
        switch test.join {
        case .identical:
            #expect(joined == whole)
        case .within(let error):
            let difference = zip(joined, whole).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= error, "largest difference \(difference)")
        case .partition:
            #expect(joinedPackets == (try FFmpegTool.packetHashes(source)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
    }
}

/// `--split-on-title` over a recorded ICY body: one piece per title, cut where the title arrived and tagged
/// with it (read back by mutagen), against the titles the fixture script wrote into the body.
@Suite struct RecordSplitOnTitleTests {
    static let body = Fixtures.directory.appendingPathComponent("icy/icy-metaint16000.body").path
    static let facts = Fixtures.directory.appendingPathComponent("icy/icy-metaint16000.json")

    /// What mutagen reads of each piece: `TPE1`, `TIT2` and `TDRC`, tab-separated, `-` for none.
    static func mutagenTags(_ paths: [String]) throws -> [[String]] {
        let program = """
            import sys, mutagen.id3
            for path in sys.argv[1:]:
                tag = mutagen.id3.ID3(path)
                print("\\t".join(str(tag[key]) if key in tag else "-" for key in ("TPE1", "TIT2", "TDRC")))
            """
        let output = try FFmpegTool.run("python3", ["-c", program] + paths).output
        return String(decoding: output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func eachTitleIsAPieceTaggedWithIt() throws {
        let folder = try makeTemporaryFolder("record")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.run([
            "record", Self.body, "--icy-metaint", "16000", "--split-on-title", "-o", folder.path + "/{n}.mp3",
            "--start-time", RecordCommandTests.start,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let pieces = result.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.facts)) as! [String: Any]
        let blocks = (facts["metadata"] as! [[String: Any]]).filter { $0["streamTitle"] is String }
        // Each block names a new title here; the demo's own ID3 tag names the first block's already.
        let titles = blocks.map { $0["streamTitle"] as! String }
        #expect(titles.count == 7 && Set(titles).count == 7)
        try #require(pieces.count == titles.count)
        let tags = try Self.mutagenTags(pieces.map { $0["path"] as! String })
        for (index, title) in titles.enumerated() {
            // Stations write "Artist - Title"; a title without " - " is a title alone, an empty one none.
            let parts = title.components(separatedBy: " - ")
            let expected = title.isEmpty ? ["-", "-"] : parts.count > 1
                ? [parts[0], parts.dropFirst().joined(separator: " - ")] : ["-", title]
            #expect(Array(tags[index].prefix(2)) == expected, "piece \(index + 1)")
            #expect(pieces[index]["title"] as? String == (title.isEmpty ? nil : expected[1]))
            // Dated by its start, in local time, as the JSON line states it (mutagen prints a space for the T).
            #expect(tags[index][2] == String((pieces[index]["start"] as! String).prefix(19)).replacing("T", with: " "))
        }
        // A piece ends where the next title arrived: 48,000 bytes of 128 kb/s audio, 3 s, to within a frame.
        for index in 1..<blocks.count - 1 {
            let bytes = (blocks[index + 1]["audioOffset"] as! Int) - (blocks[index]["audioOffset"] as! Int)
            let duration = pieces[index]["duration"] as! Double
            #expect(abs(duration - Double(bytes) / 16_000) < 1152.0 / 44_100, "piece \(index + 1)")
        }
    }
}

/// A recording that starts again numbers its pieces on from the highest `{n}` of this stream's pieces already
/// there, rather than from 1 (which gave `001-2.mp3`); another stream's pieces in the folder do not count.
@Suite struct RecordNumberingTests {
    @Test func aSecondRunGoesOnFromTheHighestNumber() throws {
        let folder = try makeTemporaryFolder("record-numbering")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("other-041.mp3"))
        let template = folder.path + "/{stream}-{n}.mp3"
        for run in 1...2 {
            let pieces = try RecordCommandTests.record("cbr.mp3", to: template, ["--stream", "jazz", "--every", "5"])
            let names = pieces.map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent }
            let expected = run == 1 ? ["jazz-001.mp3", "jazz-002.mp3", "jazz-003.mp3"]
                : ["jazz-004.mp3", "jazz-005.mp3", "jazz-006.mp3"]
            #expect(names == expected, "run \(run)")
        }
    }
}

/// Packets past the audio's end that its LAME tag states (here 10 frames appended to a whole file) hold no audio:
/// the piece ends before them instead of failing with "a LAME tag cannot trim 12287 frames at the end", which
/// left it as `.part`.
@Suite struct RecordPastTheAudioEndTests {
    @Test func packetsPastTheStatedEndAreLeftOut() throws {
        let folder = try makeTemporaryFolder("record-padding")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = RecordCommandTests.fixture("cbr.mp3")
        let packets = String(decoding: try FFmpegTool.run("ffprobe", [
            "-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", source]).output, as: UTF8.self)
            .split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let appended = bytes[packets[3][0]..<packets[13][0]]
        let padded = folder.appendingPathComponent("padded.mp3")
        try (bytes + appended).write(to: padded)

        let result = try AudiostreamRunner.run(["record", padded.path, "-o", folder.path + "/rec/{n}.mp3"])
        #expect(result.status == 0, "\(result.standardError)")
        let pieces = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/rec")
        #expect(pieces == ["001.mp3"])
        // ffmpeg honours the LAME tag of both: the piece decodes to the whole file's samples.
        #expect(try FFmpegTool.decode(folder.path + "/rec/001.mp3").count == (try FFmpegTool.decode(source).count))

        // A clock boundary among those packets (12.1 s of audio in) begins no piece of them alone: it held the
        // lead-in and nothing else.
        let split = try AudiostreamRunner.run(["record", padded.path, "-o", folder.path + "/split/{n}.mp3",
                                               "--every", "5", "--start-time", "1699999992.9"])
        #expect(split.status == 0, "\(split.standardError)")
        let splitPieces = split.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(splitPieces.count == 3, "\(splitPieces)")
        var joined: [Float] = []
        for piece in splitPieces.map({ $0["path"] as! String }) {
            #expect(try FFmpegTool.warnings(piece) == "", "\(piece)")
            joined += try FFmpegTool.decode(piece)
        }
        #expect(joined == (try FFmpegTool.decode(source)))
    }
}

/// A disk that takes no byte (here a file size limit of 0, as a full disk answers every write) costs each try its
/// piece, but leaves no empty `.part` behind: one was left every 10 s of audio.
@Suite struct RecordFullDiskTests {
    @Test func aPieceThatStoredNothingLeavesNoPart() throws {
        let folder = try makeTemporaryFolder("record-full")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // SIGXFSZ ignored, as by a daemon: the writes then fail with EFBIG.
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" record \"$1\" -o \"$2\"",
                             AudiostreamRunner.executable.path, RecordCommandTests.fixture("cbr.mp3"),
                             folder.path + "/{n}.mp3"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        // Two tries: at the start and 10 s of audio later.
        #expect(message.contains("cannot write \(folder.path)/001.mp3.part: File too large"), "\(message)")
        #expect(message.contains("cannot write \(folder.path)/002.mp3.part: File too large"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}

/// No piece shorter than a second but the last: a clock boundary 1 ms after the start made a first piece of one
/// packet; the first piece now runs on to the next boundary.
@Suite struct RecordShortestPieceTests {
    @Test func aBoundaryRightAfterTheStartMakesNoPiece() throws {
        let folder = try makeTemporaryFolder("record-shortest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.run(["record", RecordCommandTests.fixture("cbr.mp3"), "-o",
                                                folder.path + "/{n}.mp3", "--every", "5",
                                                "--start-time", "1699999999.999"])
        #expect(result.status == 0, "\(result.standardError)")
        let pieces = result.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        // 12 s of audio: to 5.001 s, to 10.001 s, then the rest.
        #expect(pieces.count == 3, "\(pieces)")
        let durations = try pieces.map { try FFmpegTool.duration($0["path"] as! String) }
        #expect(durations.dropLast().allSatisfy { $0 > 4.9 }, "\(durations)")
    }
}

/// A codec the template's extension cannot hold (a DJ's Ogg Vorbis on a mount recorded as `.mp3`) is recorded
/// in its own container, named with its own extension, and said; `{ext}` names each piece's container.
@Suite struct RecordContainerTests {
    @Test(arguments: [("{n}.mp3", true), ("v-{n}.{ext}", false)])
    func aPieceTakesItsCodecsContainer(_ template: String, _ isSaid: Bool) throws {
        let folder = try makeTemporaryFolder("record-container")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AudiostreamRunner.run(["record", RecordCommandTests.fixture("vorbis.ogg"), "-o",
                                                folder.path + "/" + template])
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == [template.hasPrefix("v-") ? "v-001.ogg" : "001.ogg"])
        #expect(result.standardError.contains(".mp3 cannot hold Vorbis audio: this piece is .ogg") == isSaid,
                "\(result.standardError)")
        let codec = try FFmpegTool.streamEntry("codec_name", of: folder.path + "/" + names[0])
        #expect(codec == "vorbis")
    }
}

/// Ctrl-C ends `audiostream record` with its piece finished: named, whole, and printed.
@Suite struct RecordInterruptTests {
    @Test func anInterruptFinishesThePieceUnderWay() throws {
        let folder = try makeTemporaryFolder("record-interrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let part = folder.path + "/001.mp3.part"
        let result = try AudiostreamRunner.interrupt(
            ["record", "-", "-o", folder.path + "/{n}.mp3", "--start-time", "0"], once: part)
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: part))
        #expect(try FFmpegTool.warnings(folder.path + "/001.mp3") == "")
    }
}
