import Foundation
import FixtureSupport
import Testing

/// The `audiostream` subcommands end to end, with their documented output formats.
@Suite struct AudiostreamCommandTests {
    typealias Runner = AudiostreamRunner

    /// `offset,size` of each `packets` row.
    static func offsetsAndSizes(_ result: Runner.Result) -> [String] {
        result.lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
    }

    @Test func packetsPrintsTheFFprobePacketList() throws {
        let result = try Runner.run(["packets", Runner.fixture("l3-vbr-v2.mp3")])
        #expect(result.status == 0)
        #expect(result.lines.first == "offset,size,frames")
        #expect(Self.offsetsAndSizes(result) == Runner.expectedPackets("l3-vbr-v2"))
        #expect(result.lines.dropFirst().allSatisfy { $0.hasSuffix(",1152") })
    }

    @Test func chunkingOptionsDoNotChangeTheOutput() throws {
        let file = Runner.fixture("splice-xing-44k-stereo-22k-mono.mp3")
        let reference = try Runner.run(["packets", file])
        for options in [["--chunk-size", "1"], ["--random-chunks", "11"], ["--chunk-size", "333", "--hint", "mp3"]] {
            #expect(try Runner.run(["packets"] + options + [file]).standardOutput == reference.standardOutput)
        }
    }

    @Test func skipLeavesOutPacketsOverlappingTheRange() throws {
        let expected = Runner.expectedPackets("l3-cbr128-joint")
        let result = try Runner.run(["packets", "--skip", "5000:9000", Runner.fixture("l3-cbr128-joint.mp3")])
        let kept = expected.filter { row in
            let fields = row.split(separator: ",").map { Int($0)! }
            return fields[0] + fields[1] <= 5000 || fields[0] >= 9000
        }
        #expect(Self.offsetsAndSizes(result) == kept)
    }

    @Test func standardInputIsReadWithDash() throws {
        let file = Runner.fixture("l2-192k-stereo.mp2")
        let result = try Runner.run(["packets", "-"], standardInput: try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Self.offsetsAndSizes(result) == Runner.expectedPackets("l2-192k-stereo"))
    }

    @Test func eventsAreJSONLinesEndingWithEnd() throws {
        let result = try Runner.run(["events", Runner.fixture("damaged-junk-start.mp3")])
        let events = result.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(events.last?["event"] as? String == "end")
        #expect(events.first?["event"] as? String == "discontinuity", "the junk comes first")
        #expect(events.first?["reason"] as? String == "resync")
        #expect(events.first?["skippedBytes"] as? Int == 3000)
        let packets = events.filter { $0["event"] as? String == "packet" }
        #expect(packets.map { "\($0["offset"]!),\($0["size"]!)" } == Runner.expectedPackets("damaged-junk-start"))
        let firstPacket = try #require(events.firstIndex { $0["event"] as? String == "packet" })
        let property = { (event: [String: Any]) in event["event"] as? String == "property" ? event["id"] as? String : nil }
        let ids = events[..<firstPacket].compactMap(property)
        #expect(ids.last == "redy" && ids.contains("dfmt") && ids.contains("pnfo"))
        // What only packets tell comes once they have been seen.
        let measured = Set(events[firstPacket...].compactMap(property))
        #expect(measured.isSuperset(of: ["psze", "abpp"]))
    }

    @Test func probeReportsPropertiesAndCounts() throws {
        let probe = try Runner.run(["probe", Runner.fixture("l3-vbr-v2.mp3")]).object
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: Runner.fixtures
            .appendingPathComponent("expected/l3-vbr-v2.json"))) as! [String: Any]
        #expect(probe["fileFormat"] as? String == "MPG3")
        let format = try #require(probe["dataFormat"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == facts["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == facts["channels"] as? Int)
        #expect(format["formatID"] as? String == ".mp3")
        #expect(probe["dataOffset"] as? Int == facts["firstPacketOffset"] as? Int)
        #expect((probe["packetTableInfo"] as? [String: Any])?["validFrames"] as? Int == facts["mpg123Samples"] as? Int)
        #expect((probe["counted"] as? [String: Any])?["packets"] as? Int == facts["packetCount"] as? Int)
        #expect(probe["durationIsEstimated"] as? Bool == false)
        #expect(probe["restrictsRandomAccess"] as? Bool == true)
        for key in ["audioDataByteCount", "maximumPacketSize", "packetSizeUpperBound", "averageBytesPerPacket", "bitRate"] {
            #expect(probe[key] is NSNumber, "\(key)")
        }
    }

    @Test func probeGivesNullForUnknownValues() throws {
        let result = try Runner.run(["probe", Runner.fixture("l3-noxing.mp3")])
        #expect(result.standardOutput.contains("\"audioDataPacketCount\":null"))
        #expect(result.standardOutput.contains("\"packetTableInfo\":null"))
    }

    @Test func scanCountsPacketsFramesBytesAndSeconds() throws {
        let scan = try Runner.run(["scan", Runner.fixture("l3-mpeg2-22k-joint.mp3")]).object
        let expected = Runner.expectedPackets("l3-mpeg2-22k-joint")
        let bytes = expected.reduce(0) { $0 + Int($1.split(separator: ",")[1])! }
        #expect(scan["packets"] as? Int == expected.count)
        #expect(scan["frames"] as? Int == expected.count * 576)
        #expect(scan["bytes"] as? Int == bytes)
        let seconds = try #require(scan["seconds"] as? Double)
        #expect(abs(seconds - Double(expected.count * 576) / 22050) < 1e-9)
    }

    @Test func errorsAreOneLineWithAFailureStatus() throws {
        for arguments in [["packets", "/nonexistent/file.mp3"], ["packets", "--skip", "9:3", "x"],
                          ["scan", "--hint", "nonsense", "x"], ["scan", "--chunk-size", "99999999999", "x"]] {
            let result = try Runner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").count >= 1)
            #expect(!result.standardError.contains("Fatal error"), "no crash trace")
        }
        let missing = try Runner.run(["probe", "/nonexistent/file.mp3"])
        #expect(missing.standardError.hasPrefix("Error: cannot open /nonexistent/file.mp3"))
    }
}

extension AudiostreamCommandTests {
    @Test func tagsPrintsNormalisedKeysAndRawFrames() throws {
        let tags = try Runner.run(["tags", Runner.fixture("tags-id3v24-and-v1-and-ape.mp3")]).object
        let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: Runner.fixtures
            .appendingPathComponent("expected/tags-id3v24-and-v1-and-ape.tags.json"))) as! [String: Any]
        let sources = (recorded["tags"] as! [[String: Any]]).map { $0["source"] as! String }
        let raw = try #require(tags["raw"] as? [[String: Any]])
        #expect(raw.map { $0["source"] as! String } == sources)
        // The leading ID3v2 tag wins over the trailers; mutagen's EasyID3 view of it.
        let easy = (recorded["tags"] as! [[String: Any]])[0]["easy"] as! [String: [String]]
        #expect(tags["title"] as? String == easy["title"]?.joined(separator: "; "))
        #expect(tags["trackNumber"] is Int)
        // Each key space once, in the order first met, with the fields of all its tags: those `raw` lists tag by
        // tag, which the tag reader tests hold to mutagen.
        let formats = try #require(tags["formats"] as? [String: [[String: Any]]])
        var spaces: [String] = []
        for source in sources where !spaces.contains(source) { spaces.append(source) }
        #expect(spaces == ["id3v2.4", "apev2", "id3v1"])
        #expect(Set(formats.keys) == Set(spaces))
        for space in spaces {
            let fields = raw.filter { $0["source"] as? String == space }.flatMap { $0["frames"] as! [[String: Any]] }
            #expect(formats[space]?.map { $0["id"] as! String } == fields.map { $0["id"] as! String }, "\(space)")
        }
    }

    @Test func artworkWritesTheFrontCoverMutagenRead() throws {
        let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: Runner.fixtures
            .appendingPathComponent("expected/tags-id3v24.tags.json"))) as! [String: Any]
        let frames = (recorded["tags"] as! [[String: Any]])[0]["frames"] as! [[String: Any]]
        let cover = try #require(frames.first { $0["id"] as? String == "APIC" && $0["type"] as? Int == 3 })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("artwork-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Runner.run(["tags", "--artwork", path, Runner.fixture("tags-id3v24.mp3")])
        #expect(result.status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.map { String(format: "%02x", $0) }.joined() == cover["data"] as? String)

        let none = try Runner.run(["tags", "--artwork", path, Runner.fixture("tags-id3v1.mp3")])
        #expect(none.status != 0 && none.standardError.contains("has no artwork"))
    }
}

/// `audiostream decode`, against the MD5 of mpg123's and ffmpeg's output that the fixture scripts recorded.
@Suite struct DecodeCommandTests {
    typealias Runner = AudiostreamRunner

    static func facts(_ stem: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: Runner.fixtures
            .appendingPathComponent("expected/\(stem).json"))) as! [String: Any]
    }

    @Test(arguments: ["l3-vbr-v2", "l2-dual-crc", "l3-mpeg25-11k-joint", "l3-freeformat-200k"])
    func rawS16IsMPG123sOutput(stem: String) throws {
        let file = try FileManager.default.contentsOfDirectory(atPath: Runner.fixtures.path)
            .first { $0.hasPrefix(stem + ".") }!
        let result = try Runner.runBinary(["decode", "--raw", "--random-chunks", "5", Runner.fixture(file)])
        #expect(result.status == 0)
        #expect(try md5(Array(result.output)) == Self.facts(stem)["mpg123S16Md5"] as? String)
    }

    /// Every codec libavcodec decodes, against `ffmpeg -f s16le` (expected/decode/, see CodecDecoderTests).
    @Test(arguments: DecodeReference.all)
    func rawS16IsFFmpegsOutput(reference: DecodeReference) throws {
        let result = try Runner.runBinary(["decode", "--raw", "--format", "s16", reference.file.path])
        #expect(result.status == 0)
        #expect(try md5(Array(result.output)) == reference.s16Md5)
    }

    /// `--rate` and `--channels` against ffmpeg's libswresample (the references' `resampled`, see PCMResamplerTests).
    @Test(arguments: ["ogg-vorbis-chained-rate.ogg", "flac-44k-stereo.flac", "aac-lc-faststart.m4a"])
    func rawResampledIsLibswresamplesOutput(name: String) throws {
        let reference = try #require(DecodeReference.all.first { $0.name == name })
        let expected = reference.resampled
        let result = try Runner.runBinary([
            "decode", "--raw", "--format", "s16", "--rate", "\(expected.sampleRate)", "--channels",
            "\(expected.channels)", reference.file.path,
        ])
        #expect(result.status == 0)
        #expect(try md5(Array(result.output)) == expected.s16Md5)
    }

    /// A fixed rate makes a stream whose rate changes one format, which a WAV file can hold.
    @Test func aFixedRateLetsARateChangeGoIntoOneWAVFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fixed-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: path) }
        let file = Runner.fixture("splice-noxing-48k-32k.mp3")
        #expect(try Runner.run(["decode", "--rate", "44100", "-o", path.path, file]).status == 0)
        let wav = [UInt8](try Data(contentsOf: path))
        #expect((0..<4).reduce(0) { $0 | Int(wav[24 + $1]) << (8 * $1) } == 44100)
    }

    @Test(arguments: [["--rate", "7999"], ["--rate", "192001"], ["--channels", "0"], ["--channels", "3"]])
    func aRateOrChannelCountOutOfRangeIsRefused(arguments: [String]) throws {
        let result = try Runner.run(["decode", "--raw"] + arguments + [Runner.fixture("l3-vbr-v2.mp3")])
        #expect(result.status != 0)
        #expect(result.standardError.contains(arguments[0]))
    }

    /// A file only a file can give, read out of order: the same PCM as ffmpeg's, trimmed as the container says.
    @Test(arguments: DecodeReference.readAsFiles)
    func rawS16OfAFileReadOutOfOrderIsFFmpegsOutput(reference: DecodeReference) throws {
        let result = try Runner.runBinary(["decode", "--raw", "--format", "s16", reference.file.path])
        #expect(result.status == 0)
        #expect(try md5(Array(result.output)) == reference.s16Md5)
    }

    @Test func everyDecodeReferenceIsThere() {
        #expect(DecodeReference.all.count == 100)
        #expect(DecodeReference.readAsFiles.count == 2)
    }

    @Test func wavFileHoldsTheSamePCMWithAHeaderThatSaysWhat() throws {
        let file = Runner.fixture("l3-vbr-v2.mp3")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(try Runner.run(["decode", "--format", "f32", "-o", path.path, file]).status == 0)
        let wav = [UInt8](try Data(contentsOf: path))
        let raw = try Runner.runBinary(["decode", "--raw", "--format", "f32", file]).output
        func uint32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(wav[offset + $1]) << (8 * $1) } }
        func uint16(_ offset: Int) -> Int { Int(wav[offset]) | Int(wav[offset + 1]) << 8 }
        // RIFF/WAVE with an 18-byte IEEE-float fmt chunk and a fact chunk, per the WAVE format specification.
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<12]) == Array("WAVE".utf8))
        #expect(uint32(4) == wav.count - 8)
        #expect(uint16(20) == 3 && uint16(22) == 2 && uint32(24) == 44100 && uint16(34) == 32)
        #expect(Array(wav[38..<42]) == Array("fact".utf8) && uint32(46) == 66150)
        #expect(Array(wav[50..<54]) == Array("data".utf8) && uint32(54) == raw.count)
        #expect(Array(wav[58...]) == Array(raw))
        #expect(try md5(Array(raw)) == Self.facts("l3-vbr-v2")["mpg123F32Md5"] as? String)
    }

    @Test func aFormatChangeCannotGoIntoOneWAVFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("splice-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try Runner.run(["decode", "-o", path.path, Runner.fixture("splice-noxing-48k-32k.mp3")])
        #expect(result.status != 0)
        #expect(result.standardError.contains("use --raw"))
    }

    @Test func outputMustBeChosen() throws {
        #expect(try Runner.run(["decode", Runner.fixture("l3-vbr-v2.mp3")]).status != 0)
    }
}
