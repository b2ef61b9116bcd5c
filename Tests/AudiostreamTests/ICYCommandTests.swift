import AudioStreamProtocol
import FixtureSupport
import Foundation
import Testing

/// `--icy-metaint N` end to end, on the ICY bodies and expected values that Tests/Fixtures/make_icy_fixtures.py
/// built from its own list of fields (Tests/Fixtures/icy/), and on the plain MP3s they were made from.
@Suite struct ICYCommandTests {
    typealias Runner = AudiostreamRunner

    /// An ICY fixture and its recorded facts.
    struct ICYFixture: Decodable {
        struct Block: Decodable, Equatable, CustomStringConvertible {
            let audioOffset: Int
            let blockLength: Int
            let textBytes: Int
            let raw: String
            let streamTitle: String?
            let streamUrl: String?

            var description: String { "block at \(audioOffset): \(raw.prefix(60))" }
        }

        /// The audio file, from the repository root.
        let source: String
        let metaint: Int
        let audioBytes: Int
        let audioMD5: String
        let metadata: [Block]

        static let repository = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

        static func named(_ name: String) throws -> (body: String, facts: ICYFixture) {
            let folder = Fixtures.directory.appendingPathComponent("icy")
            let facts = try JSONDecoder().decode(
                ICYFixture.self, from: Data(contentsOf: folder.appendingPathComponent("\(name).json")))
            return (folder.appendingPathComponent("\(name).body").path, facts)
        }

        var sourcePath: String { Self.repository.appendingPathComponent(source).path }

        /// The expected packets' stem when the source is a fixture with an ffprobe packet list.
        var expectedStem: String? {
            let url = URL(fileURLWithPath: sourcePath)
            let stem = url.deletingPathExtension().lastPathComponent
            guard url.deletingLastPathComponent().standardizedFileURL == Fixtures.directory.standardizedFileURL,
                  FileManager.default.fileExists(
                    atPath: Fixtures.expected.appendingPathComponent("\(stem).packets.csv").path)
            else { return nil }
            return stem
        }
    }

    /// A metadata event as the JSON says it should be printed.
    struct Printed: Equatable, CustomStringConvertible {
        let offset: Int
        let streamTitle: String?
        let streamUrl: String?
        /// The block's text.
        let text: String

        init(offset: Int, streamTitle: String?, streamUrl: String?, text: String) {
            self.offset = offset
            self.streamTitle = streamTitle
            self.streamUrl = streamUrl
            self.text = text
        }

        init(_ block: ICYFixture.Block) {
            self.init(offset: block.audioOffset, streamTitle: block.streamTitle, streamUrl: block.streamUrl,
                      text: block.raw)
        }

        /// A printed event; a key that is missing, or neither a string nor null, gives "<bad>".
        init(_ event: [String: Any]) {
            func text(_ key: String) -> String? {
                switch event[key] {
                case let value as String: value
                case is NSNull: nil
                default: "<bad>"
                }
            }
            self.init(offset: (event["offset"] as? Int) ?? -1, streamTitle: text("streamTitle"),
                      streamUrl: text("streamUrl"), text: text("text") ?? "<bad>")
        }

        var description: String { "\(offset): \(text.prefix(60))" }
    }

    struct Run: CustomTestStringConvertible, Sendable {
        let fixture: String
        let options: [String]
        var testDescription: String { ([fixture] + options).joined(separator: " ") }
    }

    static let runs = [
        Run(fixture: "icy-metaint64", options: []),
        Run(fixture: "icy-metaint64", options: ["--random-chunks", "7"]),
        Run(fixture: "icy-metaint64", options: ["--random-chunks", "12345"]),
        Run(fixture: "icy-metaint64", options: ["--chunk-size", "1"]),
        Run(fixture: "icy-metaint16000", options: []),
        Run(fixture: "icy-metaint16000", options: ["--random-chunks", "7"]),
        Run(fixture: "icy-metaint16000", options: ["--chunk-size", "4081"]),
        // An AAC station: three blocks fall inside ADTS headers.
        Run(fixture: "icy-aac-metaint1815", options: []),
        Run(fixture: "icy-aac-metaint1815", options: ["--random-chunks", "7"]),
        Run(fixture: "icy-aac-metaint1815", options: ["--chunk-size", "1"]),
    ]

    static func events(_ result: Runner.Result) -> [[String: Any]] {
        result.lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
    }

    static func isICY(_ event: [String: Any]) -> Bool {
        event["event"] as? String == "metadata" && event["source"] as? String == "icy"
    }

    static func packetOffset(_ event: [String: Any]) -> Int? {
        event["event"] as? String == "packet" ? event["offset"] as? Int : nil
    }

    @Test(arguments: runs)
    func eventsPrintEachBlockBeforeTheFirstPacketAtOrAfterIt(_ run: Run) throws {
        let (body, facts) = try ICYFixture.named(run.fixture)
        let result = try Runner.run(["events", body, "--icy-metaint", String(facts.metaint)] + run.options)
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let events = Self.events(result)
        #expect(events.last?["event"] as? String == "end")

        let printed = events.filter(Self.isICY)
        #expect(printed.map(Printed.init) == facts.metadata.map(Printed.init))
        for event in printed {
            #expect(Set(event.keys) == ["event", "source", "offset", "streamTitle", "streamUrl", "tags", "raw", "text"])
        }

        // Each block after every packet before its offset, and before every packet at or after it.
        let packets = events.compactMap(Self.packetOffset)
        #expect(!packets.isEmpty)
        for (index, event) in events.enumerated() where Self.isICY(event) {
            let offset = try #require(event["offset"] as? Int)
            let before = events[..<index].compactMap(Self.packetOffset)
            let after = events[(index + 1)...].compactMap(Self.packetOffset)
            #expect(before.allSatisfy { $0 < offset }, "block at \(offset)")
            #expect(after.allSatisfy { $0 >= offset }, "block at \(offset)")
            #expect(before.count + after.count == packets.count)
        }

        // Packet offsets count audio bytes only: without the ICY lines, the events of the plain audio.
        let plain = try Runner.run(["events", facts.sourcePath])
        #expect(plain.status == 0)
        let withoutICY = zip(result.lines, events).filter { !Self.isICY($0.1) }.map(\.0)
        #expect(withoutICY == plain.lines)
        if let stem = facts.expectedStem {
            let packetRows = events.filter { $0["event"] as? String == "packet" }
                .map { "\($0["offset"]!),\($0["size"]!)" }
            #expect(packetRows == Runner.expectedPackets(stem))
        }
    }

    @Test(arguments: runs)
    func packetsAreThoseOfThePlainAudio(_ run: Run) throws {
        let (body, facts) = try ICYFixture.named(run.fixture)
        let result = try Runner.run(["packets", body, "--icy-metaint", String(facts.metaint)] + run.options)
        #expect(result.status == 0)
        #expect(result.lines.first == "offset,size,frames")
        let plain = try Runner.run(["packets", facts.sourcePath])
        #expect(plain.status == 0)
        #expect(result.standardOutput == plain.standardOutput)
        if let stem = facts.expectedStem {
            let rows = result.lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
            #expect(rows == Runner.expectedPackets(stem))
        }
    }

    /// The 64-byte fixture's source is a fixture with an ffprobe packet list: the comparison above must use it.
    @Test func theSmallFixtureIsComparedWithFFprobe() throws {
        #expect(try ICYFixture.named("icy-metaint64").facts.expectedStem == "l3-cbr128-joint")
        #expect(try ICYFixture.named("icy-aac-metaint1815").facts.expectedStem == "adts-lc-44k-stereo")
    }

    /// The demuxer itself on the fixture bodies: the audio is the source's, by the recorded MD5, and the blocks
    /// are the recorded ones.
    @Test(arguments: ["icy-metaint64", "icy-metaint16000", "icy-aac-metaint1815"], [UInt64(0), 1, 99])
    func strippingTheBodyGivesTheRecordedAudioAndBlocks(name: String, seed: UInt64) throws {
        let (path, facts) = try ICYFixture.named(name)
        let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var demuxer = ICYDemuxer(metaint: facts.metaint)
        var audio: [UInt8] = []
        var blocks: [(offset: Int, bytes: [UInt8])] = []
        var generator = TestRandom(seed: seed)
        var position = 0
        while position < body.count {
            // Seed 0: the whole body at once; otherwise chunks of 1…5000 bytes.
            let size = seed == 0 ? body.count : Int(generator.next() % 5000) + 1
            let end = min(body.count, position + size)
            body[position..<end].withUnsafeBytes { chunk in
                demuxer.split(chunk) { audio += $0 } metadata: { blocks.append((audio.count, Array($0))) }
            }
            position = end
        }
        #expect(audio.count == facts.audioBytes)
        #expect(try md5(audio) == facts.audioMD5)
        #expect(audio == [UInt8](try Data(contentsOf: URL(fileURLWithPath: facts.sourcePath))))

        #expect(blocks.map(\.offset) == facts.metadata.map(\.audioOffset))
        #expect(blocks.map { $0.bytes.count } == facts.metadata.map { $0.blockLength * 16 })
        #expect(blocks.map { $0.bytes.count - $0.bytes.reversed().prefix { $0 == 0 }.count }
            == facts.metadata.map(\.textBytes))
        let read = blocks.map { block -> Printed? in
            block.bytes.withUnsafeBytes { ICYMetadata(block: $0) }.map {
                Printed(offset: block.offset, streamTitle: $0.streamTitle, streamUrl: $0.streamUrl, text: $0.text)
            }
        }
        #expect(read == facts.metadata.map(Printed.init))
    }

    /// A block found exactly where a packet starts goes out before that packet. The body is built here from
    /// `l3-cbr128-joint.mp3`, whose first packet starts at 417 by ffprobe: with metaint 417, block n comes after
    /// n × 417 audio bytes and is titled n; the first lands on that first packet.
    @Test(arguments: [[], ["--chunk-size", "1"], ["--random-chunks", "3"]])
    func aBlockAtAPacketsOffsetComesBeforeThatPacket(options: [String]) throws {
        let packets = Runner.expectedPackets("l3-cbr128-joint").map { Int($0.split(separator: ",")[0])! }
        #expect(packets.first == 417)
        let audio = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Runner.fixture("l3-cbr128-joint.mp3"))))
        let metaint = 417
        var body: [UInt8] = []
        var titles: [(offset: Int, title: String)] = []
        for start in stride(from: 0, to: audio.count, by: metaint) {
            let end = min(audio.count, start + metaint)
            body += audio[start..<end]
            guard end - start == metaint else { break }
            let text = Array("StreamTitle='\(end / metaint)';".utf8)
            let units = (text.count + 15) / 16
            body += [UInt8(units)] + text + [UInt8](repeating: 0, count: units * 16 - text.count)
            titles.append((end, "\(end / metaint)"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("icy-\(UUID().uuidString).body")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let result = try Runner.run(["events", file.path, "--icy-metaint", String(metaint)] + options)
        #expect(result.status == 0)
        // The expected order: each block just before the first packet at or after its offset.
        var expected: [String] = []
        var waiting = titles[...]
        for packet in packets {
            while let next = waiting.first, next.offset <= packet {
                expected.append("title \(next.title)")
                waiting.removeFirst()
            }
            expected.append("packet \(packet)")
        }
        expected += waiting.map { "title \($0.title)" }
        let printed = Self.events(result).compactMap { event -> String? in
            if Self.isICY(event) { return "title \(event["streamTitle"] as? String ?? "?")" }
            return Self.packetOffset(event).map { "packet \($0)" }
        }
        #expect(printed == expected)
        #expect(printed.prefix(2) == ["title 1", "packet 417"])
    }

    @Test(arguments: [
        ["events", "--icy-metaint", "0"], ["packets", "--icy-metaint", "0"], ["events", "--icy-metaint=-1"],
        ["events", "--icy-metaint", "5", "--skip", "1:2"], ["packets", "--skip", "1:2", "--icy-metaint", "5"],
    ])
    func badICYOptionsAreRefused(_ arguments: [String]) throws {
        let (body, _) = try ICYFixture.named("icy-metaint64")
        let result = try Runner.run(arguments + [body])
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.contains("Fatal error"), "no crash trace")
        let message = try #require(result.standardError.split(separator: "\n").first)
        #expect(message.hasPrefix("Error: "))
        #expect(message.contains("--icy-metaint"))
        if arguments.contains("--skip") { #expect(message.contains("--skip")) }
    }
}
