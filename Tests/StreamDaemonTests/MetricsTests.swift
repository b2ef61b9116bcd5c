import AudioStreamProtocol
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// The Prometheus endpoint of a running daemon, read over TCP and, by Python's standard library, over a Unix
/// socket. Expected counts come from the fixture's recorded packet list, its size and its recipe.
@Suite struct MetricsTests {
    @Test func countersDescribeADamagedStream() throws {
        // Frames 0–19, 1500 bytes of junk, frames 20–: the last frame before the junk is dropped with it
        // (nothing confirms it), so one resync skips what the recorded packets leave out.
        let fixture = Fixtures.named("damaged-junk-between.mp3")
        let packetBytes = fixture.expectedPackets.reduce(0) { $0 + $1.size }
        // An ID3v1 trailer ("TAG" and 125 bytes) confirms the last frame while the input is still open.
        let input = fixture.bytes + Array("TAG".utf8) + [UInt8](repeating: 0, count: 125)
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig + "\nmetrics: 127.0.0.1:\(port)\n")
        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        daemon.feed(Data(input))
        try daemon.waitUntil("every packet to be parsed") {
            try daemon.streamStatus("radio")?["packets"] as? Int == fixture.expectedPackets.count
        }
        let metrics = try Self.scrape(port: port)
        #expect(metrics[#"audiostream_packets_total{stream="radio"}"#] == Double(fixture.expectedPackets.count))
        #expect(metrics[#"audiostream_bytes_in_total{stream="radio"}"#] == Double(input.count))
        #expect(metrics[#"audiostream_skipped_bytes_total{stream="radio"}"#] == Double(fixture.bytes.count - packetBytes))
        #expect(metrics[#"audiostream_resyncs_total{stream="radio"}"#] == 1)
        #expect(metrics[#"audiostream_subscribers{stream="radio"}"#] == 1)
        #expect(metrics.keys.contains { $0.hasPrefix(#"audiostream_subscriber_lag_seconds{stream="radio",subscriber=""#) })
        for name in ["reconnects", "dropped_packets", "decode_errors"] {
            #expect(metrics["audiostream_\(name)_total{stream=\"radio\"}"] == 0, "\(name)")
        }
        try daemon.closeInput()
        _ = subscriber.finish()
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func aUnixSocketServesTheSameText() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig + "\nmetrics: metrics.sock\n")
        try daemon.waitForSocket("radio.sock")
        try daemon.waitUntil("the metrics socket") { FileManager.default.fileExists(atPath: daemon.path("metrics.sock")) }
        let text = try Self.fetch(socket: daemon.path("metrics.sock"))
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("# TYPE audiostream_packets_total counter"))
        #expect(text.contains(#"audiostream_subscribers{stream="radio"} 0"#))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.path("metrics.sock")))
    }

    /// The heap in use is there, and within the private writable memory the kernel reports for the process.
    @Test func theHeapInUseIsWithinTheDaemonsDataMemory() throws {
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig + "\nmetrics: 127.0.0.1:\(port)\n")
        var answer: Double?
        try daemon.waitUntil("the metrics") {
            answer = try? Self.scrape(port: port)["audiostream_heap_in_use_bytes"]
            return answer != nil
        }
        let heap = try #require(answer)
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let data = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmData:") })
        let dataBytes = try #require(Double(data.split(separator: " ")[1])) * 1024  // "VmData:  1234 kB"
        #expect(heap > 0)
        #expect(heap <= dataBytes)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// A subscriber that never reads loses packets: the counter follows what `audiostream status` says. A reload
    /// that restarts the stream takes its series away, the departed subscriber's lag included, and starts
    /// them again from zero.
    @Test func dropsAreCountedAndARestartedStreamStartsAfresh() throws {
        let music = Fixtures.named("l3-cbr128-joint.mp3").file.path
        let stream = { (pace: Int) in """
            metrics: metrics.sock
            control: control.sock
            streams:
              - name: fast
                source: file:\(music)
                pace: \(pace)
                loop: true
                socket: fast.sock
                queueSeconds: 1
                disconnectAfter: 600
            """
        }
        let daemon = try DaemonHarness(config: stream(20))
        try daemon.waitForSocket("fast.sock")
        let stalled = try WireClient(path: daemon.path("fast.sock"))
        try stalled.send(.hello, json: Hello(kinds: [.packets]).json)
        let dropped = { try daemon.streamStatus("fast")?["subscribers"] as? [[String: Any]] ?? [] }
        try daemon.waitUntil("packets to be dropped") { try (dropped().first?["droppedPackets"] as? Int ?? 0) > 0 }
        let before = try dropped().first?["droppedPackets"] as? Int ?? 0
        let metrics = try Self.series(Self.fetch(socket: daemon.path("metrics.sock")))
        let after = try dropped().first?["droppedPackets"] as? Int ?? 0
        let counted = try #require(metrics[#"audiostream_dropped_packets_total{stream="fast"}"#])
        #expect(Double(before) <= counted && counted <= Double(after))
        let lag = try #require(metrics.first { $0.key.hasPrefix(#"audiostream_subscriber_lag_seconds{stream="fast""#) })
        #expect(lag.value > 0 && lag.value <= 1)

        try stream(19).write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the restarted stream's series") {
            let fresh = try Self.series(Self.fetch(socket: daemon.path("metrics.sock")))
            return fresh[#"audiostream_subscribers{stream="fast"}"#] == 0
                && fresh[#"audiostream_dropped_packets_total{stream="fast"}"#] == 0
                && !fresh.keys.contains { $0.hasPrefix("audiostream_subscriber_lag_seconds") }
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// A stream that has ended waits for its subscribers to take what is queued; readings meanwhile must not
    /// bring its series back.
    @Test func anEndedStreamsSeriesStayGoneWhileItsSubscribersFinish() throws {
        let music = Fixtures.named("l3-cbr128-joint.mp3")
        let daemon = try DaemonHarness(config: """
            metrics: metrics.sock
            control: control.sock
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                disconnectAfter: 600
              - name: keep
                source: file:\(music.file.path)
                loop: true
                socket: keep.sock
            """)
        try daemon.waitForSocket("radio.sock")
        let stalled = try WireClient(path: daemon.path("radio.sock"))
        try stalled.send(.hello, json: Hello(kinds: [.packets]).json)
        try daemon.waitUntil("the subscriber") { try daemon.subscriberCount("radio") == 1 }
        // Far more than the socket buffers hold, so the subscriber still has packets queued at the end.
        daemon.feed(Data((0..<20).flatMap { _ in music.bytes }))
        try daemon.closeInput()
        let radioSeries = { (metrics: [String: Double]) in metrics.keys.filter { $0.contains(#"stream="radio""#) } }
        var metrics: [String: Double] = [:]
        try daemon.waitUntil("the ended stream's counters to go") {
            metrics = try Self.series(Self.fetch(socket: daemon.path("metrics.sock")))
            return metrics[#"audiostream_packets_total{stream="radio"}"#] == nil
        }
        #expect(radioSeries(metrics).isEmpty)
        #expect(radioSeries(try Self.series(Self.fetch(socket: daemon.path("metrics.sock")))).isEmpty)
        #expect(metrics[#"audiostream_subscribers{stream="keep"}"#] == 0)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    @Test func aReloadKeepsTheMetricsWhereTheyAre() throws {
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig + "\nmetrics: 127.0.0.1:\(port)\n")
        try daemon.waitForSocket("radio.sock")
        try (DaemonHarness.standardInputConfig + "\nmetrics: metrics.sock\n")
            .write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the warning") { daemon.log.contains("metrics stay at 127.0.0.1:\(port) until the next start") }
        #expect(try Self.scrape(port: port)[#"audiostream_subscribers{stream="radio"}"#] == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.path("metrics.sock")))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// The series of the answer on 127.0.0.1:`port`.
    static func scrape(port: UInt16) throws -> [String: Double] {
        let response = try IcecastServer.get(port: port, path: "/metrics")
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        return series(String(decoding: response.body, as: UTF8.self))
    }

    /// The whole HTTP/1.0 answer on the Unix socket at `path`, as read by an HTTP client that is not ours.
    static func fetch(socket path: String) throws -> String {
        let python = Process()
        let output = Pipe()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(sys.argv[1])
            s.sendall(b"GET /metrics HTTP/1.0\\r\\n\\r\\n"); data = b""
            while chunk := s.recv(65536): data += chunk
            sys.stdout.write(data.decode())
            """, path]
        python.standardOutput = output
        try python.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return text
    }

    /// `name{labels} value` lines of a metrics text, by series.
    static func series(_ text: String) -> [String: Double] {
        var series: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            series[String(line[..<space])] = value
        }
        return series
    }
}
