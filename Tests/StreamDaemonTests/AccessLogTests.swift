import FixtureSupport
import Foundation
@testable import StreamDaemon
import Testing

/// `http.accessLog`: Icecast's access log, read back by the regular expression of the combined log format plus
/// Icecast's seconds, and by a real log analyzer (GoAccess).
@Suite struct AccessLogTests {
    /// The combined log format's fields, then Icecast's seconds, as log tools match an Icecast `access.log` line.
    static let pattern = try! NSRegularExpression(pattern:
        #"^(\S+) (\S+) (\S+) \[(\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4})\] "(\S+) (\S+) (HTTP/\d\.\d)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" (\d+)$"#)

    /// The fields of `line`, or nil when it does not match.
    static func fields(_ line: String) -> [String]? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = pattern.firstMatch(in: line, range: range) else { return nil }
        return (1..<match.numberOfRanges).map { String(line[Range(match.range(at: $0), in: line)!]) }
    }

    @Test func aLineIsIcecastsWithFieldsThatCannotEndEarly() throws {
        let date = Date(timeIntervalSince1970: 1_796_000_000)
        let entry = AccessLogEntry(address: "192.0.2.7", user: nil, method: "GET", target: "/radio.mp3?x=\"1\"",
                                   version: "1.1", status: 200, bytes: 123_456, referer: "http://example.com/a b",
                                   userAgent: "VLC/3.0 \"quoted\" back\\slash `tick`", seconds: 42, date: date)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "dd/MMM/yyyy:HH:mm:ss Z"
        #expect(entry.line == "192.0.2.7 - - [\(formatter.string(from: date))] \"GET /radio.mp3?x=.1. HTTP/1.1\" 200 "
                + "123456 \"http://example.com/a b\" \"VLC/3.0 .quoted. back.slash .tick.\" 42")
        let fields = try #require(Self.fields(entry.line))
        #expect(fields[5] == "/radio.mp3?x=.1.")
        #expect(fields[11] == "42")
        let named = AccessLogEntry(address: "::1", user: "jo hn", method: "GET", target: "/a", version: "1.0",
                                   status: 401, bytes: 0, referer: nil, userAgent: nil, seconds: 0, date: date)
        #expect(Self.fields(named.line)?[2] == "jo.hn")
        #expect(Self.fields(named.line)?[9] == "-")
    }

    /// A FIFO with no reader would block the start, a full one every loop: only a regular file is taken.
    @Test func onlyARegularFileIsALog() throws {
        let folder = try DaemonHarness.makeFolder()
        let fifo = folder.appendingPathComponent("access.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try #require(throws: AccessLogError.self) { try AccessLog(path: fifo) }
        #expect(error.description.contains("not a regular file"))
        #expect(throws: Never.self) { try AccessLog(path: folder.appendingPathComponent("access.log").path) }
    }

    @Test func listenersAndAnswersAreLoggedAndALogAnalyzerReadsThem() throws {
        let (daemon, port) = try DaemonHarness.withHTTP(DaemonHarness.loopedRadio, http: "accessLog: access.log")
        try daemon.waitForMount(port: port, "radio")
        let listener = try IcecastServer.get(port: port, path: "/radio.mp3?session=1",
                                             headers: [("Referer", "http://example.com/player \"page\"")],
                                             maxBodyBytes: 30_000, timeout: 10)
        #expect(listener.status == 200)
        #expect(try IcecastServer.get(port: port, path: "/nothing").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/status.json").status == 200)
        let logPath = daemon.path("access.log")
        var lines: [String] = []
        // The harness's own status requests are logged too.
        try daemon.waitUntil("the listener's line in the access log") {
            lines = (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            return lines.contains { $0.contains("/radio.mp3?session=1") }
        }
        let parsed = lines.map(Self.fields)
        #expect(parsed.allSatisfy { $0 != nil }, "\(lines)")
        let byTarget = Dictionary(parsed.compactMap { $0 }.map { ($0[5], $0) }) { first, _ in first }
        let heard = try #require(byTarget["/radio.mp3?session=1"])
        #expect(heard[0] == "127.0.0.1")
        #expect(heard[4] == "GET" && heard[6] == "HTTP/1.0" && heard[7] == "200")
        #expect(Int(heard[8])! >= listener.body.count)
        #expect(heard[9] == "http://example.com/player .page.")
        #expect(heard[10] == "audiostream-tests")
        #expect(byTarget["/nothing"]?[7] == "404")
        #expect(byTarget["/status.json"]?[7] == "200")

        // GoAccess, told Icecast's format, reads every line.
        let report = daemon.path("report.json")
        _ = try FFmpegTool.run("goaccess", [logPath, "--no-global-config",
                                            "--log-format=%h %^[%d:%t %^] \"%r\" %s %b \"%R\" \"%u\" %T",
                                            "--date-format=%d/%b/%Y", "--time-format=%T", "-o", report])
        let general = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
            as? [String: Any])?["general"] as? [String: Any])
        #expect(general["valid_requests"] as? Int == lines.count)
        #expect(general["failed_requests"] as? Int == 0)

        // Log rotation: the file is moved away, SIGHUP, and the next line starts the new file.
        try FileManager.default.moveItem(atPath: logPath, toPath: logPath + ".1")
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the reload") { daemon.log.contains("reloading") }
        #expect(try IcecastServer.get(port: port, path: "/nothing").status == 404)
        try daemon.waitUntil("a line in the new access log") {
            (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").count == 1
        }
        #expect(try String(contentsOfFile: logPath + ".1", encoding: .utf8).split(separator: "\n").count >= lines.count)
    }
}
