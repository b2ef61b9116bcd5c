import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// A station lost and covered by its fallback, end to end. The station is ffmpeg serving an MP3 at 44.1 kHz in
/// real time, killed and started again; the fallback is a looped MP3 at 48 kHz, so whose packets are whose shows
/// in the sample rate announced before them.
@Suite struct FallbackSourceTests {
    static let stationFile = Fixtures.named("l3-cbr128-joint.mp3").file.path
    static let fallbackFile = Fixtures.named("l3-cbr320-48k-stereo.mp3").file.path

    /// Packets keep flowing to a socket subscriber and an HTTP listener while the station is away, and come from
    /// the station again once it is back: `lost`, `fallback`, `restored`, each switch a discontinuity and a new
    /// format. The listener, whose dead-air timeout is short, stays connected throughout, and a newcomer is served.
    @Test func aLostStationIsCoveredByItsFallbackUntilItIsBack() throws {
        let folder = try DaemonHarness.makeFolder()
        let stationPort = try FreePort.pick()
        var station = try Self.station(port: stationPort, folder: folder, name: "station-1")
        defer { station.stop(timeout: 0) }
        // ffmpeg serves one client: it is seen listening, not asked.
        try Self.waitUntilListening(port: stationPort)
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: http://127.0.0.1:\(stationPort)/live
              socket: radio.sock
              queueSeconds: 60
              reconnect: {initialDelay: 0.2, maxDelay: 0.5}
              fallback: {source: "file:\(Self.fallbackFile)", loop: true}
            """, http: "deadAirTimeout: 1", folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        try daemon.waitUntil("the station's packets") {
            subscriber.events.count { $0["event"] as? String == "packet" } > 50
        }
        let (listener, heard) = try Self.listen(port: port, folder: folder)
        defer { listener.stop(timeout: 0) }
        try daemon.waitUntil("the station to reach the listener") { heard() > 16_000 }

        kill(station.process.processIdentifier, SIGKILL)
        station.process.waitUntilExit()
        try daemon.waitUntil("the fallback to cover", timeout: 10) {
            Self.states(subscriber.events).contains("fallback")
        }
        // Over 2 s of the fallback's 320 kb/s, twice the dead-air timeout: the listener stays all along.
        let covered = heard()
        try daemon.waitUntil("the fallback to reach the listener") { heard() > covered + 100_000 }
        #expect(listener.process.isRunning)
        let newcomer = try RawConnection.exchange(port: port, "HEAD /radio HTTP/1.0\r\n\r\n").text
        #expect(newcomer.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(newcomer)")

        station = try Self.station(port: stationPort, folder: folder, name: "station-2")
        try Self.waitUntilBack(daemon, subscriber, heard: heard, timeout: 30)
        #expect(listener.process.isRunning)
        #expect(try daemon.streamStatus("radio")?["onAir"] as? String == "main")

        let events = subscriber.events
        #expect(Self.states(events) == ["connected", "lost", "fallback", "restored"], "\(daemon.log)")
        // The sample rate before each run of packets: the station's, the fallback's, the station's again; each
        // run after a discontinuity, and after the `source` event of its switch.
        var runs: [(rate: Int, packets: Int, start: Int, afterDiscontinuity: Bool)] = []
        var rate = 0
        var discontinuity = false
        for (index, event) in events.enumerated() {
            if event["id"] as? String == "dfmt", let value = event["value"] as? [String: Any] {
                rate = value["sampleRate"] as? Int ?? -1
            } else if event["event"] as? String == "discontinuity" {
                discontinuity = true
            } else if event["event"] as? String == "packet" {
                if runs.last?.rate == rate {
                    runs[runs.count - 1].packets += 1
                } else {
                    runs.append((rate, 1, index, discontinuity))
                }
                discontinuity = false
            }
        }
        #expect(runs.map(\.rate) == [44100, 48000, 44100])
        #expect(runs.allSatisfy { $0.packets >= 40 }, "\(runs)")
        #expect(runs.dropFirst().allSatisfy { $0.afterDiscontinuity }, "\(runs)")
        for (state, run) in zip(["fallback", "restored"], runs.dropFirst()) {
            #expect(events[..<run.start].contains { $0["state"] as? String == state }, "\(state)")
        }
        let offsets = events.compactMap { $0["event"] as? String == "packet" ? $0["offset"] as? Int : nil }
        #expect(offsets == offsets.sorted())
    }

    /// A station that comes back with noise instead of audio never takes the air from the fallback: its answer is
    /// parsed on the side, refused at its bound, and only the next answer, audio again, hands back.
    @Test func aStationBackWithNoiseLeavesTheFallbackOnTheAir() throws {
        let audio = Self.stationReply
        var noise = audio
        noise.body = Array(String(repeating: "not audio, only noise; ", count: 5000).utf8)
        let server = try LocalRadioServer(replies: [audio, noise, audio], held: true)
        defer { server.stop() }
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(server.url)
                socket: radio.sock
                queueSeconds: 60
                reconnect: {initialDelay: 0.2, maxDelay: 0.5}
                fallback: {source: "file:\(Self.fallbackFile)", loop: true}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        server.open()
        try daemon.waitUntil("the station to be back") { Self.states(subscriber.events).contains("restored") }

        let events = subscriber.events
        #expect(Self.states(events).prefix(4) == ["connected", "lost", "fallback", "restored"], "\(daemon.log)")
        let log = daemon.log
        let refused = try #require(log.range(of: "source lost: no audio frames in the first 64 KiB"), "\(log)")
        let back = try #require(log.range(of: "main source back on the air"))
        #expect(refused.upperBound < back.lowerBound)
        // Between the switches, nothing but the fallback's packets.
        let fallback = try #require(events.firstIndex { $0["state"] as? String == "fallback" })
        let restored = try #require(events.firstIndex { $0["state"] as? String == "restored" })
        let rates = events[fallback..<restored].compactMap { ($0["value"] as? [String: Any])?["sampleRate"] as? Int }
        #expect(rates == [48000])
    }

    /// A fallback that fails (here a file of text, which holds no frame) leaves the stream off the air, as if it had
    /// none: a new listener gets the 503, and the stream runs on, waiting for its station.
    @Test func aFallbackThatFailsLeavesTheStreamOffTheAir() throws {
        let audio = Self.stationReply
        let server = try LocalRadioServer(replies: [audio, .status("404 Not Found")])
        defer { server.stop() }
        let folder = try DaemonHarness.makeFolder()
        try String(repeating: "no audio here\n", count: 2000).write(
            to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: \(server.url)
              socket: radio.sock
              reconnect: {initialDelay: 0.2, maxDelay: 0.5}
              fallback: {source: "file:notes.txt", loop: true, pace: none}
            """, folder: folder)
        try daemon.waitUntil("the fallback to fail") { daemon.log.contains("fallback failed: no audio in") }
        let answer = try RawConnection.exchange(port: port, "GET /radio HTTP/1.0\r\n\r\n")
        #expect(answer.text.hasPrefix("HTTP/1.0 503 Service Unavailable\r\n"), "\(answer.text.prefix(300))")
        let status = try #require(try daemon.streamStatus("radio"))
        #expect(status["state"] as? String == "running")
        #expect(status["onAir"] as? String == "away")
        #expect(daemon.process.isRunning)
    }

    /// A file that ends is not lost, but with a fallback the stream does not end with it: the fallback plays on,
    /// paced by its own audio, from its first frame.
    @Test func aFileThatEndsHandsOverToItsFallbackForGood() throws {
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: "file:\(Self.stationFile)"
                socket: radio.sock
                queueSeconds: 60
                fallback: {source: "file:\(Self.fallbackFile)", loop: true}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        // The file holds 40 packets (ffprobe), the fallback 43, played in a loop.
        try daemon.waitUntil("the fallback to play on") {
            subscriber.events.count { $0["event"] as? String == "packet" } > 120
        }
        let events = subscriber.events
        #expect(Self.states(events) == ["fallback"])
        let rates = events.compactMap { ($0["value"] as? [String: Any])?["sampleRate"] as? Int }
        #expect(rates == [44100, 48000])
        #expect(try daemon.streamStatus("radio")?["state"] as? String == "running")
        #expect(try daemon.streamStatus("radio")?["onAir"] as? String == "fallback")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// A live DJ over an AutoDJ: the fallback plays until a source client pushes to the mount, the DJ takes over
    /// at its first frame, and the fallback is back once the DJ leaves.
    @Test func aPushedSourceTakesOverFromTheFallbackAndHandsBack() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
              queueSeconds: 60
              fallback: {source: "file:\(Self.fallbackFile)", loop: true}
            """, http: "sourcePassword: hackme")
        let subscriber = try daemon.subscribe("live", kinds: "packets,properties,metadata")
        try daemon.waitUntil("the fallback to play") { Self.states(subscriber.events) == ["fallback"] }
        let pusher = try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-stream_loop", "2", "-i", Self.stationFile, "-c", "copy", "-f", "mp3",
            "icecast://source:hackme@127.0.0.1:\(port)/live",
        ], folder: daemon.folder, name: "pusher")
        defer { pusher.stop(timeout: 0) }
        try daemon.waitUntil("the DJ to leave and the fallback to be back", timeout: 30) {
            Self.states(subscriber.events).count >= 4
        }
        let events = subscriber.events
        #expect(Self.states(events).prefix(4) == ["fallback", "restored", "lost", "fallback"], "\(daemon.log)")
        let rates = events.compactMap { ($0["value"] as? [String: Any])?["sampleRate"] as? Int }
        #expect(rates.prefix(3) == [48000, 44100, 48000])
    }

    /// With no fallback, a lost station leaves the stream off the air: a new listener gets a 503 that says so, not
    /// stale audio, and a listener that was hearing it is closed once the dead-air timeout has passed.
    @Test func aLostStationWithoutFallbackRefusesNewListenersAndClosesSilentOnes() throws {
        let fixture = ICYFixture("icy-metaint64")
        let server = try LocalRadioServer(
            replies: [.icy(fixture.body, metaint: fixture.metaint), .status("404 Not Found")], held: true)
        let folder = try DaemonHarness.makeFolder()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: \(server.url)
              socket: radio.sock
              reconnect: {initialDelay: 0.2, maxDelay: 0.5}
            """, http: "deadAirTimeout: 1.5", folder: folder)
        try daemon.waitForHTTP()
        let (listener, heard) = try Self.listen(port: port, folder: folder)
        defer { listener.stop(timeout: 0) }
        try daemon.waitUntil("the listener to wait for audio") {
            try daemon.streamStatus("radio")?["waitingListeners"] as? Int == 1
        }
        server.open()
        try daemon.waitUntil("the station to be lost") { daemon.log.contains("HTTP 404 Not Found") }
        let answer = try RawConnection.exchange(port: port, "GET /radio HTTP/1.0\r\n\r\n")
        #expect(answer.text.hasPrefix("HTTP/1.0 503 Service Unavailable\r\n"), "\(answer.text.prefix(300))")
        #expect(answer.text.contains("the stream is off the air: its source is lost"))

        try daemon.waitUntil("the silent listener to be closed", timeout: 15) { !listener.process.isRunning }
        #expect(heard() > 0)
        #expect(daemon.log.contains("closed 1 HTTP listeners: off the air for 1.5 s"))
        server.stop()
    }

    /// `fallback:` takes what `source:` does, with its options; `http.deadAirTimeout` is 30 s unless set.
    @Test func aFallbackIsWrittenAsASourceIs() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.yaml").path
        func load(_ stream: String, http: String = "") throws -> DaemonConfig {
            try "\(http)streams:\n  - {name: a, source: stdin, socket: a.sock, \(stream)}\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            return try ConfigLoader(file: file).load()
        }
        let plain = try load("fallback: \"file:\(Self.fallbackFile)\"", http: "http: {listen: \"127.0.0.1:8000\"}\n")
        #expect(plain.streams[0].fallback == .file(path: Self.fallbackFile, pace: .realTime(speed: 1), loop: false))
        #expect(plain.http?.deadAirTimeout == 30)
        let looped = try load("fallback: {source: \"file:\(Self.fallbackFile)\", loop: true, pace: 2}")
        #expect(looped.streams[0].fallback == .file(path: Self.fallbackFile, pace: .realTime(speed: 2), loop: true))
        let network = try load("fallback: {source: \"http://127.0.0.1:9/x\", stallTimeout: 3}")
        #expect(network.streams[0].fallback.map { "\($0)" } == "http://127.0.0.1:9/x")
        let timeout = try load("", http: "http: {listen: \"127.0.0.1:8000\", deadAirTimeout: 4.5}\n")
        #expect(timeout.http?.deadAirTimeout == 4.5)
        #expect(throws: (any Error).self) { try load("fallback: stdin") }
        #expect(throws: (any Error).self) { try load("fallback: {source: \"http://127.0.0.1:9/x\", loop: true}") }
    }

    /// The station's file as one HTTP answer, sent at once.
    static let stationReply = LocalRadioServer.Reply(
        statusLine: "HTTP/1.1 200 OK", headers: [("content-type", "audio/mpeg")],
        body: [UInt8](FileManager.default.contents(atPath: stationFile)!))

    /// curl listening to the mount of `radio`, and how many bytes it has heard so far.
    static func listen(port: UInt16, folder: URL) throws -> (ToolProcess, heard: () -> Int) {
        let file = folder.appendingPathComponent("listener.mp3")
        let curl = try ToolProcess("curl", ["-s", "-N", "-o", file.path, "http://127.0.0.1:\(port)/radio"],
                                   folder: folder, name: "listener")
        return (curl, { (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0 })
    }

    /// ffmpeg serving the station's file, looped, in real time, to one client.
    static func station(port: UInt16, folder: URL, name: String) throws -> ToolProcess {
        try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", stationFile, "-c", "copy", "-f", "mp3",
            "-content_type", "audio/mpeg", "-listen", "1", "http://127.0.0.1:\(port)/live",
        ], folder: folder, name: name)
    }

    /// Waits until a socket listens on 127.0.0.1:`port`, as the kernel lists it in /proc/net/tcp (state 0A).
    static func waitUntilListening(port: UInt16) throws {
        let local = String(format: "0100007F:%04X", port)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
            let rows = table.split(separator: "\n").map { $0.split(separator: " ") }
            if rows.contains(where: { $0.count > 3 && $0[1] == local && $0[3] == "0A" }) { return }
            usleep(20_000)
        }
        throw HarnessError.timedOut("ffmpeg to listen on \(port)", log: "")
    }

    /// Waits until `subscriber` got 40 packets after the `restored` event, then until the listener that `heard`
    /// counts got 16 kB more.
    static func waitUntilBack(_ daemon: DaemonHarness, _ subscriber: SubscriberProcess, heard: () -> Int,
                              timeout: TimeInterval) throws {
        try daemon.waitUntil("the station to be back", timeout: timeout) {
            let events = subscriber.events
            guard let restored = events.firstIndex(where: { $0["state"] as? String == "restored" }) else {
                return false
            }
            return events[restored...].count { $0["event"] as? String == "packet" } > 40
        }
        let back = heard()
        try daemon.waitUntil("the station to reach the listener again") { heard() > back + 16_000 }
    }

    /// The states of the `source` events.
    static func states(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["event"] as? String == "source" }.compactMap { $0["state"] as? String }
    }
}
