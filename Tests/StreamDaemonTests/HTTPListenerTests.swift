import FixtureSupport
import Foundation
import Testing

/// The daemon's HTTP mounts as ordinary clients see them: curl and ffprobe read the stream, its icy-* headers and
/// its titles; bad requests, slow headers and a listener that never reads cost the others nothing.
@Suite struct HTTPListenerTests {
    static let demo = IcecastTests.demo
    static let tagged = Fixtures.named("tags-id3v23.mp3").file
    /// Copies of `tagged` in a row: over 16000 bytes of audio.
    static let taggedRepeats = 6
    /// Connections that send part of a head and then nothing.
    static let halfOpenConnections = 200

    @Test func curlAndFFprobeReadAMountWithItsTitlesAndEveryPacket() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: stdin
              socket: radio.sock
              queueSeconds: 60
            """)
        let demo = try Data(contentsOf: Self.demo)
        // Enough for the format to be known and a burst to be kept.
        daemon.feed(demo.prefix(65536))
        try daemon.waitForMount(port: port, "radio")
        let title = try HTTPStreamCheck.ffprobeTitle(Self.demo, folder: daemon.folder)

        let url = "http://127.0.0.1:\(port)/radio"
        let folder = daemon.folder
        // ffprobe reads the burst and the first ICY block, and is done.
        let probe = try ToolProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", url],
                                        folder: folder, name: "probe")
        let probed = try JSONSerialization.jsonObject(with: probe.output) as? [String: Any]
        let tags = (probed?["format"] as? [String: Any])?["tags"] as? [String: String]
        #expect(tags?["icy-name"] == "radio", "\(probe.errors)")
        #expect(tags?["StreamTitle"] == title)

        let plainBody = folder.appendingPathComponent("plain.body")
        let icyBody = folder.appendingPathComponent("icy.body")
        let plain = try ToolProcess("curl", ["-sS", "-D", "-", "-o", plainBody.path, url], folder: folder, name: "plain")
        let icy = try ToolProcess("curl", ["-sS", "-H", "Icy-MetaData: 1", "-D", "-", "-o", icyBody.path, url],
                                  folder: folder, name: "icy")
        try daemon.waitUntil("two listeners") { try Self.mountStatus(port, "radio")?["listeners"] as? Int == 2 }
        let status = try daemon.streamStatus("radio")
        #expect((status?["listeners"] as? [Any])?.count == 2)
        #expect((status?["subscribers"] as? [Any])?.count == 0)

        daemon.feed(demo.dropFirst(65536))
        // Another song, longer than an ICY interval (a title replaced within one interval is never sent), then
        // the first again: the title changes twice.
        let tagged = try Data(contentsOf: Self.tagged)
        for _ in 0..<Self.taggedRepeats { daemon.feed(tagged) }
        daemon.feed(demo)
        try daemon.closeInput()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")

        let demoPackets = try HTTPStreamCheck.ffprobePackets(Self.demo, folder: folder)
        let taggedPackets = try HTTPStreamCheck.ffprobePackets(Self.tagged, folder: folder)
        let packets = demoPackets + Array(repeating: taggedPackets, count: Self.taggedRepeats).flatMap { $0 } + demoPackets
        let titles = [title, try HTTPStreamCheck.ffprobeTitle(Self.tagged, folder: folder), title]

        let plainResult = plain.finish()
        #expect(plainResult.status == 0, "\(plainResult.errors)")
        let headers = HTTPStreamCheck.headers(plainResult.output)
        #expect(headers["status"] == "HTTP/1.1 200 OK")
        #expect(headers["content-type"] == "audio/mpeg")
        #expect(headers["icy-name"] == "radio")
        #expect(headers["cache-control"]?.contains("no-cache") == true)
        #expect(headers["access-control-allow-origin"] == "*")
        #expect(headers["transfer-encoding"] == nil)
        #expect(headers["content-length"] == nil)
        #expect(headers["icy-metaint"] == nil)
        let body = try Data(contentsOf: plainBody)
        #expect(HTTPStreamCheck.isPacketSuffix(body, of: packets), "the body is not the stream's last packets")

        let icyResult = icy.finish()
        #expect(icyResult.status == 0, "\(icyResult.errors)")
        let icyHeaders = HTTPStreamCheck.headers(icyResult.output)
        #expect(icyHeaders["icy-metaint"] == "16000")
        let (audio, blocks) = HTTPStreamCheck.splitICY(try Data(contentsOf: icyBody), metaint: 16000)
        #expect(HTTPStreamCheck.isPacketSuffix(audio, of: packets), "the ICY body's audio is not the stream's packets")
        #expect(blocks.compactMap(HTTPStreamCheck.streamTitle) == titles)

    }

    @Test func badRequestsSlowHeadersAndAListenerThatNeverReadsCostTheOthersNothing() throws {
        let port = try FreePort.pick()
        let metricsPort = try FreePort.pick()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            metrics: 127.0.0.1:\(metricsPort)
            http: {listen: "127.0.0.1:\(port)", headerTimeout: 1}
            streams:
              - name: radio
                source: file:\(Self.demo.path)
                loop: true
                pace: 8
                socket: radio.sock
                mount: /radio.mp3
                queueSeconds: 1
                disconnectAfter: 1
              - name: hidden
                source: file:\(Self.demo.path)
                loop: true
                socket: hidden.sock
                http: false
            """)
        try daemon.waitForMount(port: port, "radio")

        let refusals: [(request: String, status: String)] = [
            ("POST /radio.mp3 HTTP/1.1\r\nHost: x\r\n\r\n", "405"),
            ("GET /radio HTTP/1.0\r\n\r\n", "404"),
            ("GET /hidden HTTP/1.0\r\n\r\n", "404"),
            ("GARBAGE\r\n\r\n", "400"),
            ("GET /radio.mp3 HTTP/1.1\r\n\r\n", "400"),
            ("GET /radio.mp3 HTTP/1.0\r\nNo colon here\r\n\r\n", "400"),
            ("GET /radio.mp3 HTTP/1.0\r\nX-Long: " + String(repeating: "a", count: 9000), "400"),
        ]
        for (request, status) in refusals {
            let answer = try RawConnection.exchange(port: port, request)
            #expect(answer.text.hasPrefix("HTTP/1.0 \(status) "), "\(request.prefix(40)): \(answer.text)")
            #expect(answer.closed)
        }
        let head = try RawConnection.exchange(port: port, "HEAD /radio.mp3 HTTP/1.0\r\n\r\n")
        #expect(head.text.hasPrefix("HTTP/1.0 200 OK\r\n"))
        #expect(head.text.hasSuffix("\r\n\r\n"), "a HEAD answer has no body")
        #expect(head.closed)

        // A listener that stops reading falls behind and is dropped; one that reads loses nothing meanwhile.
        let stalled = try RawConnection(port: port, receiveBuffer: 4096)
        stalled.send("GET /radio.mp3 HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n")
        let reader = try ToolProcess("curl", ["-sS", "-o", "/dev/null", "http://127.0.0.1:\(port)/radio.mp3"],
                                     folder: daemon.folder, name: "reader")
        // Slowloris: heads that never end are closed after the header timeout, and meanwhile cost the others
        // nothing.
        let slow = try (0..<Self.halfOpenConnections).map { _ in try RawConnection(port: port) }
        for connection in slow { connection.send("GET /radio.mp3 HTTP/1.1\r\nHost: x\r\n") }
        #expect(try RawConnection.exchange(port: port, "HEAD /radio.mp3 HTTP/1.0\r\n\r\n").text.hasPrefix("HTTP/1.0 200"))
        #expect(slow.allSatisfy { $0.readToEnd().closed })
        try daemon.waitUntil("the stalled listener to be dropped") {
            try daemon.streamStatus("radio")?["slowDisconnects"] as? Int == 1
        }
        let listeners = try daemon.streamStatus("radio")?["listeners"] as? [[String: Any]] ?? []
        #expect(listeners.count == 1)
        #expect(listeners.first?["droppedPackets"] as? Int == 0)
        #expect(listeners.first?["transport"] as? String == "http")
        let metrics = try IcecastServer.get(port: metricsPort, path: "/metrics")
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("audiostream_http_listeners{stream=\"radio\"} 1"))

        let lines = try ToolProcess.run(DaemonHarness.binary("audiostream").path, ["status", daemon.path("control.sock")],
                                        folder: daemon.folder, name: "status")
        #expect(String(decoding: lines.output, as: UTF8.self).contains("1 HTTP listener(s)"))
        reader.process.terminate()
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// The entry of stream `name` in the daemon's `/status.json`.
    /// A listener with no burst to catch up on (bursts are off) gets its response head before any audio, though
    /// the audio goes straight to its socket.
    @Test func aListenerWithoutABurstGetsItsHeadFirst() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: stdin
              socket: radio.sock
              historySeconds: 0
            """)
        // Untagged: no title waits for the listener either.
        let audio = try Data(contentsOf: Fixtures.named("l3-cbr128-joint.mp3").file)
        daemon.feed(audio.prefix(16384))
        try daemon.waitForMount(port: port, "radio")
        let listener = try RawConnection(port: port)
        listener.send("GET /radio HTTP/1.0\r\n\r\n")
        try daemon.waitUntil("the listener") { try Self.mountStatus(port, "radio")?["listeners"] as? Int == 1 }
        daemon.feed(audio.dropFirst(16384))
        try daemon.closeInput()
        let response = listener.readToEnd().bytes
        let statusLine = String(decoding: response.prefix { $0 != 0x0D }, as: UTF8.self)
        #expect(statusLine.hasSuffix(" 200 OK"), "\(response.prefix(64))")
    }

    static func mountStatus(_ port: UInt16, _ name: String) throws -> [String: Any]? {
        let response = try IcecastServer.get(port: port, path: "/status.json")
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return (object?["streams"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }
}
