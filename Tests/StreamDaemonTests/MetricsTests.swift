import FixtureSupport
import Foundation
import Testing

/// The Prometheus endpoint of a running daemon, read over TCP and over a Unix socket; expected counts come from
/// the fixture's ffprobe packet list and its size.
@Suite struct MetricsTests {
    @Test func countersAndGaugesDescribeTheStream() throws {
        // Ends with an ID3v1 tag, which confirms the last frame before the input ends.
        let fixture = Fixtures.named("tags-id3v1.mp3")
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig + "\nmetrics: 127.0.0.1:\(port)\n")
        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        daemon.feed(Data(fixture.bytes))
        try daemon.waitUntil("every packet to be parsed") {
            try daemon.streamStatus("radio")?["packets"] as? Int == fixture.expectedPackets.count
        }
        let metrics = try Self.scrape(port: port)
        #expect(metrics[#"audiostream_packets_total{stream="radio"}"#] == Double(fixture.expectedPackets.count))
        #expect(metrics[#"audiostream_bytes_in_total{stream="radio"}"#] == Double(fixture.bytes.count))
        #expect(metrics[#"audiostream_subscribers{stream="radio"}"#] == 1)
        #expect(metrics.keys.contains { $0.hasPrefix(#"audiostream_subscriber_lag_seconds{stream="radio",subscriber=""#) })
        for name in ["resyncs", "skipped_bytes", "reconnects", "dropped_packets", "decode_errors"] {
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
        // An HTTP client that is not ours: Python's standard library on the socket.
        let python = Process()
        let output = Pipe()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(sys.argv[1])
            s.sendall(b"GET /metrics HTTP/1.0\\r\\n\\r\\n"); data = b""
            while chunk := s.recv(65536): data += chunk
            sys.stdout.write(data.decode())
            """, daemon.path("metrics.sock")]
        python.standardOutput = output
        try python.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(text.contains("# TYPE audiostream_packets_total counter"))
        #expect(text.contains(#"audiostream_subscribers{stream="radio"} 0"#))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.path("metrics.sock")))
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

    /// `name{labels} value` lines of the answer, by series.
    static func scrape(port: UInt16) throws -> [String: Double] {
        let response = try IcecastServer.get(port: port, path: "/metrics")
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        var series: [String: Double] = [:]
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            series[String(line[..<space])] = value
        }
        return series
    }
}
