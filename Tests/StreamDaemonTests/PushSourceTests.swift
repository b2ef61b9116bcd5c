import FixtureSupport
import Foundation
import Testing

/// `source: push`: Icecast source clients (ffmpeg's icecast protocol, a legacy `SOURCE` client on a raw socket)
/// push to a mount, and what they send reaches socket subscribers, packet for packet as ffprobe cuts it, and HTTP
/// listeners; wrong passwords, busy mounts and stalled sources are refused or dropped as Icecast does.
@Suite struct PushSourceTests {
    static let song = Fixtures.named("sweep-l3-mpeg1.mp3").file
    static let short = Fixtures.named("l3-cbr128-joint.mp3").file
    static let password = "hackme"

    @Test func ffmpegPushesAStationThatSubscribersAndListenersGetWhole() throws {
        let (daemon, port) = try Self.daemon()
        let folder = daemon.folder
        // The bytes ffmpeg's mp3 muxer makes of the song played twice, and their packets as ffprobe cuts them.
        let reference = folder.appendingPathComponent("reference.mp3")
        let made = try ToolProcess.run("ffmpeg", ["-v", "error", "-stream_loop", "1", "-i", Self.song.path,
                                                  "-c", "copy", "-f", "mp3", reference.path],
                                       folder: folder, name: "reference")
        try #require(made.status == 0, "\(made.errors)")
        let packets = try HTTPStreamCheck.ffprobePackets(reference, folder: folder)
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata,properties")

        let pusher = try ToolProcess("ffmpeg", ["-v", "error", "-re", "-stream_loop", "1", "-i", Self.song.path,
                                                "-c", "copy", "-f", "mp3", "-content_type", "audio/mpeg",
                                                "-ice_name", "Live Show", "-ice_genre", "Jazz",
                                                "-ice_description", "Sunday night", "-rw_timeout", "30000000",
                                                "icecast://source:\(Self.password)@127.0.0.1:\(port)/live"],
                                     folder: folder, name: "pusher")
        defer { pusher.stop() }
        try daemon.waitForMount(port: port, "live")
        let url = "http://127.0.0.1:\(port)/live"
        let body = folder.appendingPathComponent("listener.body")
        let listener = try ToolProcess("curl", ["-sS", "--max-time", "60", "-D", "-", "-o", body.path, url],
                                       folder: folder, name: "listener")
        defer { listener.stop() }
        let probe = try ToolProcess.run("ffprobe", ["-v", "error", "-rw_timeout", "20000000", "-show_entries",
                                                    "format_tags:stream=codec_name", "-of", "json", url],
                                        folder: folder, name: "probe")
        let probed = try JSONSerialization.jsonObject(with: probe.output) as? [String: Any]
        let tags = (probed?["format"] as? [String: Any])?["tags"] as? [String: String]
        #expect(tags?["icy-name"] == "Live Show", "\(probe.errors)")
        #expect(((probed?["streams"] as? [[String: Any]])?.first?["codec_name"] as? String) == "mp3")

        let pushed = pusher.finish()
        #expect(pushed.status == 0, "\(pushed.errors)")
        try daemon.waitUntil("the source to leave") { try daemon.streamStatus("live")?["connected"] as? Bool == false }
        // The stream's end gives out the last packet, which no next header confirmed, and closes the listener.
        let result = try Self.finish(subscriber, of: daemon)
        let listened = listener.finish()
        #expect(HTTPStreamCheck.isPacketSuffix(try Data(contentsOf: body), of: packets),
                "the listener's body is not the stream's last packets")
        let headers = HTTPStreamCheck.headers(listened.output)
        #expect(headers["icy-name"] == "Live Show")
        #expect(headers["icy-genre"] == "Jazz")
        #expect(headers["content-type"] == "audio/mpeg")

        #expect(result.output == packets.reduce(Data(), +), "the subscriber's packets are not ffprobe's")
        #expect(result.events.count { $0["event"] as? String == "packet" } == packets.count)
        let station = result.events.first { $0["source"] as? String == "http" }
        #expect(station?["name"] as? String == "Live Show")
        #expect(station?["genre"] as? String == "Jazz")
        #expect(station?["description"] as? String == "Sunday night")
        #expect(station?["contentType"] as? String == "audio/mpeg")
        #expect(Self.sourceStates(result.events) == ["connected", "lost"])
    }

    @Test func aWrongPasswordIs401AndASecondSourceOrAnotherMountIs403() throws {
        let (daemon, port) = try Self.daemon(more: """
            - name: radio
              source: file:\(Self.song.path)
              loop: true
              socket: radio.sock
            """)
        let folder = daemon.folder
        try daemon.waitForHTTP()
        let wrong = try Self.curlPut(port: port, "/live", password: "wrong", folder: folder)
        #expect(wrong.status == "HTTP/1.1 401 Unauthorized")
        #expect(wrong.headers["www-authenticate"]?.hasPrefix("Basic realm=") == true)
        let refused = try ToolProcess.run("ffmpeg", Self.ffmpegPush(Self.short, port: port, password: "wrong"),
                                          folder: folder, name: "refused")
        #expect(refused.status != 0)
        #expect(refused.errors.contains("401"), "\(refused.errors)")

        let first = try ToolProcess("ffmpeg", ["-stream_loop", "-1"] + Self.ffmpegPush(Self.song, port: port),
                                    folder: folder, name: "first")
        defer { first.stop() }
        try daemon.waitUntil("the first source") { try daemon.streamStatus("live")?["connected"] as? Bool == true }
        let busy = try Self.curlPut(port: port, "/live", password: Self.password, folder: folder)
        #expect(busy.status == "HTTP/1.1 403 Forbidden")
        #expect(busy.body.contains("Mountpoint in use"))
        let second = try ToolProcess.run("ffmpeg", Self.ffmpegPush(Self.short, port: port), folder: folder,
                                         name: "second")
        #expect(second.status != 0)
        #expect(second.errors.contains("403"), "\(second.errors)")
        #expect(try Self.curlPut(port: port, "/radio", password: Self.password, folder: folder).status
            == "HTTP/1.1 403 Forbidden")
        #expect(try Self.curlPut(port: port, "/nowhere", password: Self.password, folder: folder).status
            == "HTTP/1.1 404 Not Found")
        #expect(try Self.curlPut(port: port, "/live", password: Self.password, folder: folder,
                                 headers: ["Transfer-Encoding: chunked"]).status == "HTTP/1.1 501 Not Implemented")
        let status = try daemon.streamStatus("live")
        #expect(status?["connected"] as? Bool == true)
        #expect(status?["reconnects"] as? Int == 0)
        #expect(first.process.isRunning, "the first source was cut")
    }

    /// A legacy client sends its first audio with its head, without waiting for the answer: not a byte is lost.
    @Test func aLegacySourceClientIsReadFromItsFirstByte() throws {
        let (daemon, port) = try Self.daemon()
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata")
        let song = try Data(contentsOf: Self.song)
        let client = try RawConnection(port: port)
        client.send(Data(Self.legacyHead(password: Self.password, name: "Old Times").utf8) + song.prefix(1000))
        #expect(Self.readHead(client) == "HTTP/1.0 200 OK\r\n\r\n")
        client.send(song.dropFirst(1000))
        shutdown(client.descriptor, Int32(SHUT_WR))
        try daemon.waitUntil("the source to leave") { try daemon.streamStatus("live")?["connected"] as? Bool == false }

        let packets = try HTTPStreamCheck.ffprobePackets(Self.song, folder: daemon.folder)
        let result = try Self.finish(subscriber, of: daemon)
        #expect(result.output == packets.reduce(Data(), +), "the legacy client's packets are not ffprobe's")
        #expect(result.events.first { $0["source"] as? String == "http" }?["name"] as? String == "Old Times")
        #expect(Self.sourceStates(result.events) == ["connected", "lost"])
    }

    @Test func aStalledSourceIsDroppedAndTheNextOneIsAReconnect() throws {
        let (daemon, port) = try Self.daemon(stallTimeout: 1)
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata")
        let stalling = try RawConnection(port: port)
        stalling.send(Self.legacyHead(password: Self.password, name: "Stalling"))
        #expect(Self.readHead(stalling) == "HTTP/1.0 200 OK\r\n\r\n")
        let song = try Data(contentsOf: Self.song)
        stalling.send(song.prefix(20_000))
        #expect(stalling.readToEnd(timeout: 30).closed, "the stalled source was not dropped")

        let next = try RawConnection(port: port)
        next.send(Self.legacyHead(password: Self.password, name: "Next"))
        #expect(Self.readHead(next) == "HTTP/1.0 200 OK\r\n\r\n")
        let short = try Data(contentsOf: Self.short)
        next.send(short)
        shutdown(next.descriptor, Int32(SHUT_WR))
        try daemon.waitUntil("the next source to leave") {
            try daemon.streamStatus("live")?["reconnects"] as? Int == 1
                && daemon.streamStatus("live")?["connected"] as? Bool == false
        }

        let result = try Self.finish(subscriber, of: daemon)
        #expect(Self.sourceStates(result.events) == ["connected", "stalled", "connected", "lost"])
        let stalled = result.events.first { $0["state"] as? String == "stalled" }
        #expect(stalled?["error"] as? String == "stalled: no data for 1 s")
        // The next client's stream is a file of its own, which may be of another format; the frame the stalled one
        // left unfinished is a resync.
        let reasons = result.events.filter { $0["event"] as? String == "discontinuity" }
            .compactMap { $0["reason"] as? String }
        #expect(reasons.filter { $0 != "resync" } == ["input"], "\(reasons)")
        let nextPackets = try HTTPStreamCheck.ffprobePackets(Self.short, folder: daemon.folder).reduce(Data(), +)
        #expect(result.output.suffix(nextPackets.count) == nextPackets, "the next source's packets did not all arrive")
    }

    // MARK: - Helpers

    /// A daemon with one push stream, `live`, taking the password `password`, and the streams of `more`.
    static func daemon(stallTimeout: Int? = nil, more: String = "") throws -> (DaemonHarness, UInt16) {
        let stall = stallTimeout.map { "\n  stallTimeout: \($0)" } ?? ""
        return try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
              queueSeconds: 60\(stall)
            \(more)
            """, http: "sourcePassword: \(password)")
    }

    /// ffmpeg's arguments to push `file` as fast as it reads it to `/live`.
    static func ffmpegPush(_ file: URL, port: UInt16, password: String = password) -> [String] {
        ["-v", "error", "-re", "-i", file.path, "-c", "copy", "-f", "mp3", "-rw_timeout", "30000000",
         "icecast://source:\(password)@127.0.0.1:\(port)/live"]
    }

    /// What curl gets for a `PUT` of a song to `path` as an Icecast 2.4 source client sends it.
    static func curlPut(port: UInt16, _ path: String, password: String, folder: URL, headers: [String] = []) throws
        -> (status: String?, headers: [String: String], body: String) {
        let result = try ToolProcess.run("curl", [
            "-sS", "--max-time", "20", "-D", "-", "-X", "PUT", "-u", "source:\(password)", "-H", "Expect: 100-continue",
            "-H", "Content-Type: audio/mpeg", "--data-binary", "@\(short.path)", "http://127.0.0.1:\(port)\(path)",
        ] + headers.flatMap { ["-H", $0] }, folder: folder, name: "put")
        let text = String(decoding: result.output, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let headers = HTTPStreamCheck.headers(Data(parts[0].utf8))
        return (headers["status"], headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The request of a legacy source client, as libshout's `SHOUT_PROTOCOL_ICY`-era clients send it.
    static func legacyHead(password: String, name: String, contentType: String = "audio/mpeg") -> String {
        let credentials = Data("source:\(password)".utf8).base64EncodedString()
        return "SOURCE /live ICE/1.0\r\nAuthorization: Basic \(credentials)\r\nContent-Type: \(contentType)\r\n"
            + "ice-name: \(name)\r\n\r\n"
    }

    /// The answer's head, read up to its empty line (at most 20 s).
    static func readHead(_ connection: RawConnection) -> String {
        var head = Data()
        var byte: UInt8 = 0
        let deadline = Date().addingTimeInterval(20)
        while !head.ends(with: Data("\r\n\r\n".utf8)), Date() < deadline {
            if recv(connection.descriptor, &byte, 1, 0) == 1 { head.append(byte) }
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Stops the daemon, and with it the subscriber, and gives what the subscriber got.
    static func finish(_ subscriber: SubscriberProcess, of daemon: DaemonHarness) throws
        -> (output: Data, events: [[String: Any]]) {
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let result = subscriber.finish()
        return (result.output, result.lines.compactMap(DaemonStdinTests.object))
    }

    /// The states of the `source` events, in order.
    static func sourceStates(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["event"] as? String == "source" }.compactMap { $0["state"] as? String }
    }
}

private extension Data {
    func ends(with suffix: Data) -> Bool { count >= suffix.count && self.suffix(suffix.count) == suffix }
}
