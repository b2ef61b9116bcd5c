import FixtureSupport
import Foundation
import Testing

/// The daemon reading radio over HTTP from a local server: ICY bodies recorded by the fixture script, whose
/// audio and blocks are known, answered as SHOUTcast, chunked, redirected, cut off, refused or stalled.
@Suite struct HTTPSourceTests {
    @Test(arguments: ["icy-metaint64", "icy-metaint16000"])
    func aStationIsStrippedToItsExactAudio(body name: String) throws {
        let fixture = ICYFixture(name)
        let server = try LocalRadioServer(replies: [.icy(fixture.body, metaint: fixture.metaint)], held: true)
        let result = try Self.receive(from: server)

        #expect(result.status == 0, "\(result.errors)")
        try Self.expectExactAudio(result, fixture: fixture)
        #expect(server.requests.first?.lowercased().contains("icy-metadata: 1\r\n") == true)
        let station = result.events.first { $0["source"] as? String == "http" }
        #expect(station?["name"] as? String == "Local Radio")
        #expect(station?["genre"] as? String == "Test")
        #expect(station?["url"] as? String == "http://radio.example/")
        #expect(station?["bitRate"] as? Int == 128)
        #expect(station?["contentType"] as? String == "audio/mpeg")
    }

    /// A SHOUTcast-era station repeats the title in every block: subscribers hear each title once, when it changes.
    @Test func aTitleRepeatedInEveryBlockIsSentOnce() throws {
        let audio = ICYFixture("icy-metaint64").source
        let metaint = 500
        let body = ICYBody.interleave(audio, metaint: metaint) { block in
            "StreamTitle='\(block < 10 ? "First Song" : "Second Song")';StreamUrl='';"
        }
        let server = try LocalRadioServer(replies: [.icy(body, metaint: metaint)], held: true)
        let result = try Self.receive(from: server)

        #expect(result.status == 0, "\(result.errors)")
        let titles = result.events.filter { $0["source"] as? String == "icy" }
        #expect(titles.map { "\($0["offset"] as? Int ?? -1) \($0["streamTitle"] as? String ?? "?")" } == [
            "500 First Song", "5000 Second Song",
        ])
        #expect(audio.count / metaint > 20)
    }

    @Test func aRedirectToAChunkedAnswerIsFollowed() throws {
        let fixture = ICYFixture("icy-metaint64")
        var chunked = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint)
        chunked.statusLine = "HTTP/1.1 200 OK"
        chunked.chunkSizes = [1, 7, 300, 4096, 63]
        let server = try LocalRadioServer(replies: [.redirect(to: "/moved?x=1"), chunked], held: true)
        let result = try Self.receive(from: server)

        #expect(result.status == 0, "\(result.errors)")
        try Self.expectExactAudio(result, fixture: fixture)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.hasPrefix("GET /moved?x=1 HTTP/1.1\r\n") == true)
    }

    /// The first connection is cut mid-stream; the next answers the whole body; then the server fails until the
    /// policy gives up.
    @Test func aDroppedConnectionIsResumedAfterAReconnectEvent() throws {
        let fixture = ICYFixture("icy-metaint64")
        let cutAt = 9000
        var cut = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint)
        cut.cutAfter = cutAt
        let server = try LocalRadioServer(
            replies: [cut, .icy(fixture.body, metaint: fixture.metaint), .status("503 Service Unavailable")], held: true)
        let result = try Self.receive(from: server, reconnect: "{initialDelay: 0.05, maxDelay: 0.2, attempts: 3}",
                                      exitStatus: 1)

        #expect(result.status == 0, "\(result.errors)")
        let reconnects = result.events.indices.filter { result.events[$0]["reason"] as? String == "reconnect" }
        try #require(reconnects.count == 1, "requests: \(server.requests.count); log: \(result.log)")
        let resumeOffset = try #require(result.events[reconnects[0]]["offset"] as? Int)
        // Audio of the first connection: the body's first `cutAt` bytes without their length bytes and blocks.
        #expect(resumeOffset == Self.audioBytes(inFirst: cutAt, of: fixture))
        // The packet the cut left unfinished is lost at the reconnect, and said once: one event, with its bytes.
        let discontinuities = result.events.filter { $0["event"] as? String == "discontinuity" }
        let unfinished = try #require(fixture.expectedPackets?.first { $0.offset + Int64($0.size) > resumeOffset })
        #expect(discontinuities.map { "\($0["reason"] ?? "?") \($0["offset"] ?? "?") \($0["skippedBytes"] ?? "?")" }
            == ["reconnect \(resumeOffset) \(resumeOffset - Int(unfinished.offset))"])

        let before = result.events[..<reconnects[0]].filter { $0["event"] as? String == "packet" }
        let after = result.events[reconnects[0]...].filter { $0["event"] as? String == "packet" }
        let expected = try #require(fixture.expectedPackets).map { "\($0.offset),\($0.size)" }
        // Before the cut: the whole packets that arrived. After it: the stream again from its start, offsets
        // counting on from the first connection's audio; the properties are not announced again.
        let complete = try #require(fixture.expectedPackets).filter { $0.offset + Int64($0.size) <= resumeOffset }
        #expect(before.map(Self.row) == complete.map { "\($0.offset),\($0.size)" })
        let resumed = after.map { "\(($0["offset"] as! Int) - resumeOffset),\($0["size"] as! Int)" }
        #expect(resumed.drop { $0 == "0,417" } == expected[...])
        // Only what packets measure (maximum and average packet size, InfoDictionary) is announced after it.
        let announced = result.events[reconnects[0]...].filter { $0["event"] as? String == "property" }
        #expect(Set(announced.compactMap { $0["id"] as? String }).isSubset(of: ["psze", "abpp", "info"]))
        #expect(result.log.contains("HTTP 503"))
    }

    @Test func failingStationsAreRetriedAndNeverDisturbAGoodOne() throws {
        let fixture = ICYFixture("icy-metaint64")
        let good = try LocalRadioServer(replies: [.icy(fixture.body, metaint: fixture.metaint)], held: true)
        let missing = try LocalRadioServer(replies: [.status("404 Not Found")])
        var stall = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint)
        stall.stallAfter = 2000
        let stalled = try LocalRadioServer(replies: [stall])
        let refusedPort = try FreePort.pick()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: good
                source: \(good.url)
                socket: good.sock
                reconnect: false
                queueSeconds: 60
              - name: missing
                source: \(missing.url)
                socket: missing.sock
                reconnect: {initialDelay: 0.05, maxDelay: 0.1}
              - name: refused
                source: http://127.0.0.1:\(refusedPort)/live
                socket: refused.sock
                reconnect: {initialDelay: 0.05, maxDelay: 0.1}
              - name: stalled
                source: \(stalled.url)
                socket: stalled.sock
                stallTimeout: 0.3
                reconnect: {initialDelay: 0.05, maxDelay: 0.1}
            """)
        let subscriber = try daemon.subscribe("good", kinds: "packets,metadata")
        good.open()
        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        let packets = result.lines.compactMap(DaemonStdinTests.object).filter { $0["event"] as? String == "packet" }
        #expect(packets.map(Self.row) == fixture.expectedPackets?.map { "\($0.offset),\($0.size)" })

        // Each failing stream says why in the log, under its name, and keeps trying.
        try daemon.waitUntil("every failure to be retried") {
            try ["missing", "refused", "stalled"].allSatisfy { name in
                (try daemon.streamStatus(name)?["state"] as? String) == "running"
                    && daemon.log.split(separator: "\n").filter { $0.contains("stream=\(name)") && $0.contains("reconnecting") }.count >= 2
            }
        }
        let log = daemon.log.split(separator: "\n")
        #expect(log.contains { $0.contains("stream=missing") && $0.contains("HTTP 404 Not Found") })
        #expect(log.contains { $0.contains("stream=refused") && $0.lowercased().contains("refused") })
        #expect(log.contains { $0.contains("stream=stalled") && $0.contains("stalled: no data for 0.3 s") })
        #expect(try daemon.streamStatus("missing")?["lastSourceError"] as? String == "HTTP 404 Not Found")
        #expect(try daemon.streamStatus("refused")?["lastSourceError"] as? String == "connection refused")
        #expect(missing.requests.count >= 2)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        stalled.stop()
    }

    /// A station in trouble is announced while it happens, to a subscriber of metadata: each lost or stalled
    /// connection, the attempt to come with its wait, each new connection, and at last why the stream ended. A
    /// connection that brought audio ends the run of failures: the count and the wait start again from the first.
    @Test func troubleAtTheSourceIsAnnouncedWhileItHappens() throws {
        let fixture = ICYFixture("icy-metaint64")
        let whole = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint)
        var cut = whole
        cut.cutAfter = 9000
        var silent = whole
        silent.stallAfter = 0
        let unavailable = LocalRadioServer.Reply.status("503 Service Unavailable")
        // The silent answer is the third failure in a row, the last the policy allows. The timeout leaves the held
        // first answer time for the subscriber to join.
        let server = try LocalRadioServer(replies: [cut, unavailable, whole, unavailable, silent], held: true)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(server.url)
                socket: radio.sock
                stallTimeout: 3
                reconnect: {initialDelay: 0.05, maxDelay: 0.1, attempts: 3}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        server.open()
        let result = subscriber.finish()
        #expect(try daemon.waitForExit() == 1, "\(daemon.log)")
        server.stop()

        #expect(result.status == 0, "\(result.errors)")
        let events = result.lines.compactMap(DaemonStdinTests.object)
        let source = events.filter { $0["event"] as? String == "source" }
        #expect(source.map(Self.sourceState) == [
            "connected 0", "lost: the server ended the stream", "reconnecting 1",
            "lost: HTTP 503 Service Unavailable", "reconnecting 2", "connected 2",
            "lost: the server ended the stream", "reconnecting 1",
            "lost: HTTP 503 Service Unavailable", "reconnecting 2", "connected 2", "stalled: stalled: no data for 3 s",
        ], "\(daemon.log)")
        // Each wait is the policy's: 0.05 s for the first failure in a row, 0.1 s for the second, less up to half.
        let waits = source.filter { $0["state"] as? String == "reconnecting" }
        #expect(waits.count == 4)
        for wait in waits {
            let full = wait["attempt"] as? Int == 1 ? 0.05 : 0.1
            #expect((wait["delay"] as? Double).map { (full / 2...full).contains($0) } == true, "\(wait)")
        }
        #expect(result.lines.last == #"{"event":"end","reason":"sourceEnded","error":"#
            + #""stalled: no data for 3 s (gave up after 3 failed attempts)"}"#)
    }

    /// A `source` event as `STATE ATTEMPT` or `STATE: ERROR`.
    static func sourceState(_ event: [String: Any]) -> String {
        let state = event["state"] as? String ?? "?"
        if let attempt = event["attempt"] as? Int { return "\(state) \(attempt)" }
        return "\(state): \(event["error"] as? String ?? "?")"
    }

    // MARK: - Helpers

    struct Received {
        let status: Int32
        let events: [[String: Any]]
        let output: Data
        let errors: String
        let log: String
    }

    /// Runs the daemon on one stream from `server`, subscribes, lets the server answer, and collects what the
    /// subscriber got once the stream ends.
    static func receive(from server: LocalRadioServer, reconnect: String = "false", exitStatus: Int32 = 0) throws
        -> Received {
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(server.url)
                socket: radio.sock
                reconnect: \(reconnect)
                queueSeconds: 60
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata,properties")
        server.open()
        let result = subscriber.finish()
        #expect(try daemon.waitForExit() == exitStatus, "\(daemon.log)")
        return Received(status: result.status, events: result.lines.compactMap(DaemonStdinTests.object),
                        output: result.output, errors: result.errors, log: daemon.log)
    }

    /// The packets tile the source from the first audio frame to its end and carry its bytes; the ICY blocks
    /// come out as recorded, each just before the first packet at or after its audio offset.
    static func expectExactAudio(_ result: Received, fixture: ICYFixture) throws {
        let packets = result.events.filter { $0["event"] as? String == "packet" }
        let first = try #require(packets.first?["offset"] as? Int)
        var end = first
        for packet in packets {
            #expect(packet["offset"] as? Int == end)
            end += packet["size"] as! Int
        }
        // The audio ends where the file does, or where its ID3v1 tag begins.
        let hasID3v1 = fixture.source.suffix(128).starts(with: Array("TAG".utf8))
        #expect(end == fixture.source.count - (hasID3v1 ? 128 : 0))
        #expect([UInt8](result.output) == Array(fixture.source[first..<end]))
        if let expected = fixture.expectedPackets {
            #expect(packets.map(row) == expected.map { "\($0.offset),\($0.size)" })
        }

        let blocks = result.events.filter { $0["source"] as? String == "icy" }
        #expect(blocks.count == fixture.metadata.count)
        for (block, recorded) in zip(blocks, fixture.metadata) {
            #expect(block["offset"] as? Int == recorded["audioOffset"] as? Int)
            #expect(block["text"] as? String == recorded["raw"] as? String)
            #expect(block["streamTitle"] as? String == recorded["streamTitle"] as? String)
            #expect((block["streamTitle"] is NSNull) == (recorded["streamTitle"] is NSNull))
            #expect(block["streamUrl"] as? String == recorded["streamUrl"] as? String)
        }
        for (index, event) in result.events.enumerated() where event["source"] as? String == "icy" {
            let offset = event["offset"] as! Int
            let earlier = result.events[..<index].compactMap { $0["event"] as? String == "packet" ? $0["offset"] as? Int : nil }
            let next = result.events[index...].first { $0["event"] as? String == "packet" }?["offset"] as? Int
            #expect(earlier.allSatisfy { $0 < offset })
            #expect(next.map { $0 >= offset } ?? true)
        }
    }

    /// Audio bytes in the first `count` bytes of an ICY body, by the format's rule.
    static func audioBytes(inFirst count: Int, of fixture: ICYFixture) -> Int {
        var position = 0
        var audio = 0
        while position < count {
            let run = min(fixture.metaint, count - position)
            audio += run
            position += run
            guard position < count else { break }
            position += 1 + Int(fixture.body[position]) * 16
        }
        return audio
    }

    static func row(_ packet: [String: Any]) -> String {
        "\(packet["offset"] as! Int),\(packet["size"] as! Int)"
    }
}
