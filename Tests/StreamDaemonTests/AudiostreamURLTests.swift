import FixtureSupport
import Foundation
import Testing

/// `audiostream` on an http URL, which it reads through `audiostream-fetch`: a station's packets and ICY titles are
/// those its bytes give from a file (ffprobe's packets, the fixture script's titles and offsets), failures are one
/// line, and the helper never outlives the tool.
@Suite struct AudiostreamURLTests {
    static let tool = DaemonHarness.binary("audiostream").path
    /// ICY fixtures whose source has ffprobe's packet list, and the content type their station announces.
    static let stations = [("icy-metaint64", "audio/mpeg"), ("icy-aac-metaint1815", "audio/aac")]

    /// A station answering with `name`'s body.
    static func station(_ name: String, contentType: String) throws -> (ICYFixture, LocalRadioServer) {
        let fixture = ICYFixture(name)
        var reply = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint, name: "Fetched")
        reply.headers = reply.headers.map { $0.0 == "content-type" ? ($0.0, contentType) : $0 }
        return (fixture, try LocalRadioServer(replies: [reply]))
    }

    @Test func bothStationsAreComparedWithFFprobe() {
        #expect(Self.stations.count == 2)
        #expect(Self.stations.allSatisfy { Self.ffprobePackets(of: ICYFixture($0.0)) != nil })
    }

    @Test(arguments: stations)
    func packetsAreThoseOfTheStationsAudio(_ name: String, contentType: String) throws {
        let (fixture, server) = try Self.station(name, contentType: contentType)
        let expected = try #require(Self.ffprobePackets(of: fixture))
        let folder = try DaemonHarness.makeFolder()
        let result = try ToolProcess.run(Self.tool, ["packets", server.url], folder: folder, name: "packets")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let rows = String(decoding: result.output, as: UTF8.self).split(separator: "\n").dropFirst()
        let packets = rows.map { PacketRecord(offset: Int64($0.split(separator: ",")[0])!, size: Int($0.split(separator: ",")[1])!) }
        #expect(packets.count == expected.count)
        #expect(packets == expected)
    }

    @Test(arguments: stations)
    func eventsGiveTheStationAndEachTitleBeforeTheFirstPacketAtOrAfterIt(_ name: String, contentType: String) throws {
        let (fixture, server) = try Self.station(name, contentType: contentType)
        let folder = try DaemonHarness.makeFolder()
        let result = try ToolProcess.run(Self.tool, ["events", server.url], folder: folder, name: "events")
        #expect(result.status == 0, "\(result.errors)")
        let events = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
            .map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        // The station's headers, before the first packet.
        let stationIndex = try #require(events.firstIndex { $0["source"] as? String == "http" })
        let station = events[stationIndex]
        #expect(station["offset"] as? Int == 0)
        #expect(station["name"] as? String == "Fetched")
        #expect(station["genre"] as? String == "Test")
        #expect(station["url"] as? String == "http://radio.example/")
        #expect(station["bitRate"] as? Int == 128)
        #expect(station["contentType"] as? String == contentType)
        #expect(!events[..<stationIndex].contains { $0["event"] as? String == "packet" })
        #expect(events.last?["event"] as? String == "end")

        // The titles at the offsets the fixture script wrote them, each before every packet at or after it.
        let titles = events.enumerated().filter { $0.element["source"] as? String == "icy" }
        #expect(titles.count == fixture.metadata.count)
        for ((index, printed), written) in zip(titles, fixture.metadata) {
            let offset = try #require(printed["offset"] as? Int)
            #expect(offset == written["audioOffset"] as? Int)
            #expect(printed["text"] as? String == written["raw"] as? String)
            #expect(printed["streamTitle"] as? String == written["streamTitle"] as? String)
            let packetOffsets = { (slice: ArraySlice<[String: Any]>) in
                slice.filter { $0["event"] as? String == "packet" }.map { $0["offset"] as! Int }
            }
            #expect(packetOffsets(events[..<index]).allSatisfy { $0 < offset }, "title at \(offset)")
            #expect(packetOffsets(events[(index + 1)...]).allSatisfy { $0 >= offset }, "title at \(offset)")
        }
        let packets = events.filter { $0["event"] as? String == "packet" }
            .map { PacketRecord(offset: Int64($0["offset"] as! Int), size: $0["size"] as! Int) }
        #expect(packets == (try #require(Self.ffprobePackets(of: fixture))))
    }

    @Test func aFailedFetchIsOneLineNamingTheURL() throws {
        let server = try LocalRadioServer(replies: [.status("404 Not Found")])
        let folder = try DaemonHarness.makeFolder()
        for (url, reason) in [(server.url, "404"), ("http://", "not a valid URL")] {
            let result = try ToolProcess.run(Self.tool, ["probe", url], folder: folder, name: "probe")
            #expect(result.status == 1)
            #expect(result.output.isEmpty)
            let lines = result.errors.split(separator: "\n")
            #expect(lines.count == 1, "\(result.errors)")
            #expect(lines.first?.hasPrefix("Error: \(url): ") == true, "\(result.errors)")
            #expect(lines.first?.contains(reason) == true, "\(result.errors)")
        }
    }

    /// A copy of the tool alone in a folder has no helper beside it.
    @Test func aMissingHelperIsOneClearLine() throws {
        let folder = try DaemonHarness.makeFolder()
        let lonely = folder.appendingPathComponent("audiostream")
        try FileManager.default.copyItem(atPath: Self.tool, toPath: lonely.path)
        let result = try ToolProcess.run(lonely.path, ["probe", "http://127.0.0.1:9/live"], folder: folder, name: "probe")
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors == "Error: http://127.0.0.1:9/live: cannot run \(folder.path)/audiostream-fetch (No such "
            + "file or directory), which reads URLs for audiostream: install it beside audiostream\n")
    }

    /// The tool killed alone (not its process group, as a terminal's Ctrl-C would: and the test runner's children
    /// may have SIGINT blocked) while the station sends nothing: its helper ends too, for it watches its reader.
    @Test func killingTheToolEndsItsHelper() throws {
        let server = try Self.stalledStation()
        let folder = try DaemonHarness.makeFolder()
        let tool = try ToolProcess(Self.tool, ["events", server.url], folder: folder, name: "events")
        defer { tool.stop() }
        #expect(Self.waitUntil(seconds: 20) { (try? Data(contentsOf: tool.outputFile))?.contains(UInt8(ascii: "\n")) == true })
        let helpers = Self.helpers(of: server.url)
        #expect(helpers.count == 1)
        kill(tool.process.processIdentifier, SIGKILL)
        tool.process.waitUntilExit()
        #expect(tool.process.terminationReason == .uncaughtSignal)
        // Within 10 s: the helper's own stall timeout (15 s) would end it too, without the watch.
        #expect(Self.waitUntil(seconds: 10) { Self.helpers(of: server.url).isEmpty },
                "helpers left: \(Self.helpers(of: server.url))")
    }

    /// The tool whose reader has gone stops its helper before it ends.
    @Test func aClosedOutputEndsTheHelperWithTheTool() throws {
        let server = try Self.stalledStation()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tool)
        process.arguments = ["events", server.url]
        let output = Pipe()
        process.standardOutput = output
        try output.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Self.helpers(of: server.url).isEmpty)
    }

    /// ffprobe's packets of the audio that `fixture` interleaves, recorded by the fixture script.
    static func ffprobePackets(of fixture: ICYFixture) -> [PacketRecord]? {
        (Fixtures.generated + Fixtures.codecs).first { $0.bytes == fixture.source }?.expectedPackets
    }

    /// A station that sends the start of a body, then nothing while it runs.
    static func stalledStation() throws -> LocalRadioServer {
        let fixture = ICYFixture("icy-metaint64")
        var reply = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint)
        reply.stallAfter = 4096
        return try LocalRadioServer(replies: [reply])
    }

    /// The running `audiostream-fetch` processes reading `url` (zombies, which have ended, left out).
    static func helpers(of url: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
                  let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            else { return false }
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let state = status.split(separator: ")").last?.split(separator: " ").first
            return arguments.first?.hasSuffix("/audiostream-fetch") == true && arguments.last == url && state != "Z"
        }
    }

    /// Waits up to `seconds` for `condition`, which is what is asserted: the bound keeps a failure from hanging.
    static func waitUntil(seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }
}
