import FixtureSupport
import Foundation
import Testing

/// The daemon end to end with a `stdin` stream: real binaries, real sockets, expected values from ffprobe and
/// mpg123 (recorded by the fixture script).
@Suite(.serialized) struct DaemonStdinTests {
    @Test(arguments: ["l3-vbr-v2.mp3", "tags-id3v24-and-v1-and-ape.mp3"])
    func everySubscriberGetsEveryPacketInOrder(fixture name: String) throws {
        let fixture = Fixtures.named(name)
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        let subscribers = try (0..<24).map { index in
            try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets,metadata,properties",
                                  folder: daemon.folder, name: "subscriber\(index)")
        }
        try daemon.waitUntil("every subscriber to join") { try daemon.subscriberCount("radio") == subscribers.count }
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()

        let expectedLines = fixture.expectedPackets.map { "\($0.offset),\($0.size)" }
        let expectedBytes = fixture.expectedPackets.reduce(into: Data()) { bytes, packet in
            bytes += Data(fixture.bytes[Int(packet.offset)..<Int(packet.offset) + packet.size])
        }
        for subscriber in subscribers {
            let result = subscriber.finish()
            #expect(result.status == 0, "\(result.errors)")
            let events = result.lines.compactMap(Self.object)
            let packets = events.filter { $0["event"] as? String == "packet" }
                .map { "\($0["offset"] as! Int),\($0["size"] as! Int)" }
            #expect(packets == expectedLines)
            #expect(result.output == expectedBytes)
            #expect(events.last?["event"] as? String == "end")
            #expect(events.last?["reason"] as? String == "sourceEnded")
            #expect(events.contains { $0["event"] as? String == "property" && $0["id"] as? String == "redy" })
        }
        // stdin cannot start again: with its only stream ended, the daemon is done.
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: daemon.path("radio.sock")))
    }

    @Test(arguments: ["s16", "f32"])
    func pcmSubscribersGetWhatMpg123Decodes(format: String) throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let result = try Self.subscribe(arguments: ["--format", format], feeding: Data(fixture.bytes))[0]
        #expect(result.status == 0, "\(result.errors)")
        let key = format == "s16" ? "mpg123S16Md5" : "mpg123F32Md5"
        #expect(try md5([UInt8](result.output)) == fixture.facts?[key] as? String)
        #expect(Self.pcmFrames(result) == fixture.facts?["mpg123Samples"] as? Int)
    }

    /// Stations of other codecs decode with libavcodec: a PCM subscriber gets `ffmpeg -f s16le`'s output (the
    /// daemon's s16 from float samples rounds as libswresample does), Opus trimmed of its pre-skip, and each link
    /// of a chain decoded as its own stream, at its own rate.
    @Test(arguments: ["ogg-opus-64k-stereo.opus", "adts-lc-44k-stereo.aac", "ogg-opus-chained.opus",
                      "ogg-vorbis-chained-rate.ogg"])
    func pcmSubscribersGetWhatFFmpegDecodes(name: String) throws {
        let reference = try #require(DecodeReference.all.first { $0.name == name })
        let result = try Self.subscribe(arguments: ["--format", "s16"], feeding: Data(reference.bytes))[0]
        #expect(result.status == 0, "\(result.errors)")
        #expect(try md5([UInt8](result.output)) == reference.s16Md5)
        #expect(Self.pcmFrames(result) == reference.frames)
    }

    /// 24-bit samples that use every bit (pcm-raw/s24le.raw, random bytes) in a WAVE file written here from the
    /// format specification: a subscriber of s16 gets `ffmpeg -f s24le -i RAW -f s16le`'s output, whose 16-bit
    /// samples keep the top bits of each rather than rounding.
    @Test func aSubscriberOfS16GetsTheTopBitsOfWiderSamples() throws {
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.expected
            .appendingPathComponent("decode/pcm/s24le.json"))) as! [String: Any]
        let samples = try Data(contentsOf: Fixtures.directory.appendingPathComponent(facts["file"] as! String))
        func le(_ value: Int, _ bytes: Int) -> Data { Data((0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }) }
        let (channels, rate) = (facts["channels"] as! Int, facts["sampleRate"] as! Int)
        let wave = Data("RIFF".utf8) + le(36 + samples.count, 4) + Data("WAVEfmt ".utf8) + le(16, 4) + le(1, 2)
            + le(channels, 2) + le(rate, 4) + le(rate * channels * 3, 4) + le(channels * 3, 2) + le(24, 2)
            + Data("data".utf8) + le(samples.count, 4) + samples
        let result = try Self.subscribe(arguments: ["--format", "s16"], feeding: wave)[0]
        #expect(result.status == 0, "\(result.errors)")
        #expect(try md5([UInt8](result.output)) == facts["s16Md5"] as? String)
    }

    /// A subscriber that fixes its rate and channels gets what ffmpeg's libswresample makes of the decoded PCM (the
    /// fixture script's `resampled` reference), one steady format through a chain's changes of rate, however many
    /// subscribers share it: the conversion runs once for all of them.
    @Test(arguments: ["ogg-vorbis-chained-rate.ogg", "ogg-opus-chained.opus", "adts-lc-44k-stereo.aac"])
    func pcmSubscribersAtAFixedRateGetWhatLibswresampleGives(name: String) throws {
        let reference = try #require(DecodeReference.all.first { $0.name == name })
        let expected = reference.resampled
        let shape = ["--format", "f32", "--rate", "\(expected.sampleRate)", "--channels", "\(expected.channels)"]
        for result in try Self.subscribe(2, arguments: shape, feeding: Data(reference.bytes)) {
            #expect(result.status == 0, "\(result.errors)")
            #expect(try md5([UInt8](result.output)) == expected.f32Md5)
            #expect(Self.pcmFrames(result) == expected.frames)
            #expect(Self.pcmLines(result).allSatisfy {
                $0["sampleRate"] as? Int == expected.sampleRate && $0["channels"] as? Int == expected.channels
            })
        }
    }

    /// A stream spliced from AAC to MP3 changes decoder mid-stream; a subscriber that fixed its format keeps it.
    @Test func aSplicedStreamKeepsAFixedFormat() throws {
        let splice = Fixtures.codecs.first { $0.name == "adts-splice-adts-mp3.aac" }!
        let result = try Self.subscribe(arguments: ["--format", "s16", "--rate", "16000", "--channels", "1"],
                                        feeding: Data(splice.bytes))[0]
        #expect(result.status == 0, "\(result.errors)")
        let pcm = Self.pcmLines(result)
        #expect(!pcm.isEmpty)
        #expect(pcm.allSatisfy { $0["sampleRate"] as? Int == 16000 && $0["channels"] as? Int == 1 })
        #expect(result.output.count == Self.pcmFrames(result) * 2)
    }

    /// A subscriber that asks for artwork gets the tag's front cover, byte for byte as mutagen read it.
    @Test func artworkReachesASubscriberThatAskedForIt() throws {
        let fixture = Fixtures.named("tags-id3v24.mp3")
        let frames = try #require(((fixture.recordedTags?["tags"] as? [[String: Any]])?.first?["frames"])
            as? [[String: Any]])
        let cover = try #require(frames.first { $0["id"] as? String == "APIC" && $0["type"] as? Int == 3 })
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("cover-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let result = try Self.subscribe(kinds: "packets,metadata", arguments: ["--artwork", picture],
                                        feeding: Data(fixture.bytes))[0]
        #expect(result.status == 0, "\(result.errors)")
        let artwork = result.lines.compactMap(Self.object).filter { $0["event"] as? String == "artwork" }
        #expect(artwork.count == 1)
        #expect(artwork.first?["mimeType"] as? String == cover["mime"] as? String)
        #expect(artwork.first?["size"] as? Int == cover["size"] as? Int)
        let written = try Data(contentsOf: URL(fileURLWithPath: picture))
        #expect(written.map { String(format: "%02x", $0) }.joined() == cover["data"] as? String)
    }

    /// With `--artwork -` the picture goes to standard output and the JSON lines to standard error.
    @Test func artworkGoesToStandardOutputWithDash() throws {
        let fixture = Fixtures.named("tags-id3v24.mp3")
        let frames = try #require(((fixture.recordedTags?["tags"] as? [[String: Any]])?.first?["frames"])
            as? [[String: Any]])
        let cover = try #require(frames.first { $0["id"] as? String == "APIC" && $0["type"] as? Int == 3 })
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata", arguments: ["--artwork", "-"])
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()

        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.errors.split(separator: "\n").compactMap { Self.object(String($0)) }
        #expect(lines.filter { $0["event"] as? String == "artwork" }.count == 1)
        let written = try Data(contentsOf: subscriber.linesFile)
        #expect(written.map { String(format: "%02x", $0) }.joined() == cover["data"] as? String)
    }

    /// A subscriber of packets alone cannot use them without their format, so it gets the format (and nothing
    /// else of the properties) before the first packet.
    @Test func aSubscriberOfPacketsAloneGetsTheFormatFirst() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()

        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        let events = result.lines.compactMap(Self.object)
        let properties = events.filter { $0["event"] as? String == "property" }
        #expect(properties.map { $0["id"] as? String } == ["dfmt"])
        let format = try #require(properties.first?["value"] as? [String: Any])
        #expect(format["sampleRate"] as? Int == fixture.facts?["sampleRate"] as? Int)
        #expect(format["channelsPerFrame"] as? Int == fixture.facts?["channels"] as? Int)
        #expect(format["framesPerPacket"] as? Int == 1152)
        let firstPacket = events.firstIndex { $0["event"] as? String == "packet" }
        #expect(events.firstIndex { $0["event"] as? String == "property" }.map { $0 < firstPacket ?? 0 } == true)
    }

    /// Containers this version does not read (RIFF and IFF forms that are not audio), by their first bytes: the
    /// parser refuses them at once.
    @Test(arguments: [Data("RIFF".utf8) + Data([0x24, 0x10, 0, 0]) + Data("AVI LIST".utf8),
                      Data("FORM".utf8) + Data([0, 0, 0x10, 0x24]) + Data("8SVXVHDR".utf8)])
    func aStreamThatIsNotAudioEndsAloneWithAClearError(start: Data) throws {
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - name: music
                source: file:\(Fixtures.named("l3-cbr128-joint.mp3").file.path)
                pace: realtime
                loop: true
                socket: music.sock
            """)
        try daemon.waitForSocket("radio.sock")
        let subscriber = try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets",
                                               folder: daemon.folder, name: "radio")
        try daemon.waitUntil("the subscriber to join") { try daemon.subscriberCount("radio") == 1 }
        daemon.feed(start + Data(repeating: 0, count: 4096))

        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.lines == [#"{"event":"end","reason":"unsupportedFormat","error":"unsupported file type ('typ?')"}"#])
        try daemon.waitUntil("the error to be logged") { daemon.log.contains("stream=radio") && daemon.log.contains("cannot parse") }
        #expect(try daemon.streamStatus("music")?["state"] as? String == "running")
        try daemon.waitForSocket("music.sock")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// What a subscriber got: its exit status, JSON lines, payload and standard error.
    typealias Received = (status: Int32, lines: [String], output: Data, errors: String)

    /// Starts a daemon reading standard input, joins `count` subscribers of `kinds` (each run with `arguments`),
    /// feeds `bytes` and closes the input, and gives what each subscriber got by the stream's end.
    static func subscribe(_ count: Int = 1, kinds: String = "pcm", arguments: [String], feeding bytes: Data) throws
        -> [Received] {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        let subscribers = try (0..<count).map { _ in try daemon.subscribe("radio", kinds: kinds, arguments: arguments) }
        daemon.feed(bytes)
        try daemon.closeInput()
        return subscribers.map { $0.finish() }
    }

    /// The `pcm` lines a subscriber printed.
    static func pcmLines(_ received: Received) -> [[String: Any]] {
        received.lines.compactMap(object).filter { $0["event"] as? String == "pcm" }
    }

    /// Frames in the `pcm` lines.
    static func pcmFrames(_ received: Received) -> Int {
        pcmLines(received).reduce(0) { $0 + ($1["frames"] as! Int) }
    }

    static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
}
