import FixtureSupport
import Foundation
import Testing

/// `/status-json.xsl` against a real Icecast 2.4: the same stream, on Icecast and relayed by the daemon, is
/// described with the same keys of the same JSON types, and the same values where the stream decides them.
@Suite struct IcecastStatusTests {
    @Test func statusJSONHasIcecastsShapeForTheSameStream() throws {
        let folder = try DaemonHarness.makeFolder()
        let demo = HTTPListenerTests.demo.path
        let icecast = try IcecastServer()
        // The stream's format as ffprobe reads it, which the source client announces as BUTT, Mixxx and Liquidsoap
        // do (`ice-audio-info`): Icecast then lists audio_info, bitrate, channels and samplerate.
        let sampleRate = try FFmpegTool.sampleRate(demo)
        let channels = try FFmpegTool.channels(demo)
        let kbps = (Int(try FFmpegTool.streamEntry("bit_rate", of: demo)) ?? 0) / 1000
        #expect(kbps == 128)
        let long = folder.appendingPathComponent("long.mp3")
        try Array(repeating: try Data(contentsOf: HTTPListenerTests.demo), count: 6).reduce(Data(), +).write(to: long)
        // A source client as curl: an HTTP PUT at about the stream's pace, which Icecast 2.4 takes.
        let upload = try ToolProcess("curl", [
            "-sS", "-T", long.path, "--limit-rate", String(kbps * 125), "-H", "Expect:",
            "-H", "Content-Type: audio/mpeg", "-H", "ice-name: Status Test", "-H", "ice-genre: Jazz",
            "-H", "ice-description: the same stream twice",
            "-H", "ice-audio-info: channels=\(channels);samplerate=\(sampleRate);bitrate=\(kbps)",
            "-u", "source:\(icecast.sourcePassword)", icecast.url(mount: "/live.mp3"),
        ], folder: folder, name: "curl-source")
        defer { upload.stop() }
        let deadline = Date().addingTimeInterval(20)
        while try icecast.mountStatus("/live.mp3") == nil, Date() < deadline { usleep(50_000) }
        // Icecast 2.4 lists one source as an object, several as an array.
        #expect(try Self.stats(port: icecast.port)["source"] is [String: Any])
        try icecast.startSource(file: HTTPListenerTests.demo, mount: "/other.mp3")
        try icecast.setTitle("Artist - Song", mount: "/live.mp3")

        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: \(icecast.url(mount: "/live.mp3"))
              socket: radio.sock
            - name: other
              source: file:\(demo)
              loop: true
              socket: other.sock
            """, folder: folder)
        try daemon.waitForMount(port: port, "radio")
        // One listener each: ours, and the daemon on Icecast.
        let listener = try RawConnection(port: port)
        listener.send("GET /radio HTTP/1.0\r\n\r\n")
        let ours = { try Self.stats(port: port) }
        let ourURL = "http://127.0.0.1:\(port)/radio"
        try daemon.waitUntil("the relayed title and the listener") {
            let source = Self.source(try ours(), url: ourURL)
            return source?["title"] as? String == "Artist - Song" && source?["listeners"] as? Int == 1
        }
        // Icecast lists a title once the source's next audio carried it.
        try daemon.waitUntil("Icecast to list the title") {
            Self.source(try Self.stats(port: icecast.port), url: icecast.url(mount: "/live.mp3"))?["title"] != nil
        }
        let theirs = try Self.stats(port: icecast.port)
        let ourStats = try ours()

        #expect(Set(ourStats.keys) == Set(theirs.keys))
        #expect((ourStats["source"] as? [Any])?.count == 2 && (theirs["source"] as? [Any])?.count == 2)
        for key in theirs.keys where key != "source" {
            #expect(Self.kind(ourStats[key]) == Self.kind(theirs[key]), "\(key)")
        }
        let their = try #require(Self.source(theirs, url: icecast.url(mount: "/live.mp3")))
        let our = try #require(Self.source(ourStats, url: ourURL), "no source at \(ourURL)")
        #expect(Set(our.keys) == Set(their.keys), "ours \(our.keys.sorted()), Icecast's \(their.keys.sorted())")
        for key in their.keys {
            #expect(Self.kind(our[key]) == Self.kind(their[key]),
                    "\(key): ours \(Self.text(our[key])), Icecast's \(Self.text(their[key]))")
        }
        for key in ["listeners", "samplerate", "channels", "bitrate", "server_name", "genre", "server_description",
                    "server_type", "title"] {
            #expect(Self.text(our[key]) == Self.text(their[key]), "\(key)")
        }
        #expect(our["listener_peak"] as? Int == 1)
        withExtendedLifetime(listener) {}
    }

    /// A push mount and Icecast's, fed by the same source client announcing its audio (`ice-audio-info`, as BUTT,
    /// Mixxx and Liquidsoap do): the same keys and types, and the same audio figures, name and genre. The daemon
    /// also lists the title the stream's ID3 tag names, which Icecast does not read in a source client's MP3.
    @Test func aPushMountHasIcecastsStatusForTheSameSourceClient() throws {
        let icecast = try IcecastServer()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              mount: /live.mp3
              socket: live.sock
            """, http: "sourcePassword: \(icecast.sourcePassword)")
        let demo = HTTPListenerTests.demo.path
        // The audio as ffprobe reads it, sent at its pace.
        let (channels, sampleRate) = (try FFmpegTool.channels(demo), try FFmpegTool.sampleRate(demo))
        let kbps = (Int(try FFmpegTool.streamEntry("bit_rate", of: demo)) ?? 0) / 1000
        let audio = "channels=\(channels);samplerate=\(sampleRate);bitrate=\(kbps)"
        let long = daemon.folder.appendingPathComponent("long.mp3")
        try Array(repeating: try Data(contentsOf: HTTPListenerTests.demo), count: 6).reduce(Data(), +).write(to: long)
        let uploads = try [port, icecast.port].map { server in
            try ToolProcess("curl", [
                "-sS", "-T", long.path, "--limit-rate", String(kbps * 125), "-H", "Expect:", "-H", "Content-Type: audio/mpeg",
                "-H", "ice-name: Push Status", "-H", "ice-genre: Jazz", "-H", "ice-audio-info: \(audio)",
                "-u", "source:\(icecast.sourcePassword)", "http://127.0.0.1:\(server)/live.mp3",
            ], folder: daemon.folder, name: "source-\(server)")
        }
        defer { for upload in uploads { upload.stop(timeout: 0) } }
        try daemon.waitUntil("both mounts with their audio") {
            try [port, icecast.port].allSatisfy { server in
                Self.source(try Self.stats(port: server), url: "http://127.0.0.1:\(server)/live.mp3")?["bitrate"] != nil
            }
        }
        let title = try HTTPStreamCheck.ffprobeTitle(HTTPListenerTests.demo, folder: daemon.folder)
        let ours = { Self.source(try Self.stats(port: port), url: "http://127.0.0.1:\(port)/live.mp3") }
        try daemon.waitUntil("the tag's title") { try ours()?["title"] as? String == title }
        try Self.compare(ours: port, theirs: icecast, mounts: ["/live.mp3"],
                         values: ["audio_info", "bitrate", "samplerate", "channels"], oursAlone: ["title"])
    }

    /// `/status-json.xsl` of the daemon on `port` and of `icecast`, with `mounts` fed by the same source client: the
    /// same keys (but `oursAlone`, which Icecast may lack) with values of the same types, and the same values where
    /// they mean the same thing (and `values`).
    static func compare(ours port: UInt16, theirs icecast: IcecastServer, mounts: [String], values: [String] = [],
                        oursAlone: Set<String> = []) throws {
        let ours = try stats(port: port)
        let theirs = try stats(port: icecast.port)
        #expect(Set(ours.keys) == Set(theirs.keys))
        for key in theirs.keys where key != "source" {
            #expect(kind(ours[key]) == kind(theirs[key]), "\(key)")
        }
        for mount in mounts {
            let our = try #require(source(ours, url: "http://127.0.0.1:\(port)\(mount)"))
            let their = try #require(source(theirs, url: icecast.url(mount: mount)))
            #expect(Set(our.keys).subtracting(oursAlone) == Set(their.keys).subtracting(oursAlone),
                    "\(mount): ours \(our.keys.sorted()), Icecast's \(their.keys.sorted())")
            for key in their.keys {
                #expect(kind(our[key]) == kind(their[key]), "\(mount) \(key)")
            }
            let same = ["listeners", "listener_peak", "server_name", "genre", "server_description", "server_type"]
            for key in same + values {
                #expect(text(our[key]) == text(their[key]), "\(mount) \(key)")
            }
        }
    }

    /// The `icestats` object of the server on `port`.
    static func stats(port: UInt16) throws -> [String: Any] {
        let response = try IcecastServer.get(port: port, path: "/status-json.xsl")
        #expect(response.header("content-type")?.hasPrefix("application/json") == true)
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return try #require(object?["icestats"] as? [String: Any])
    }

    /// The source listed with `url`.
    static func source(_ stats: [String: Any], url: String) -> [String: Any]? {
        let all = stats["source"] as? [[String: Any]] ?? (stats["source"] as? [String: Any]).map { [$0] } ?? []
        return all.first { $0["listenurl"] as? String == url }
    }

    /// A JSON value's type.
    static func kind(_ value: Any?) -> String {
        switch value {
        case nil: "absent"
        case is NSNull: "null"
        case is String: "string"
        case is NSNumber: "number"
        case is [Any]: "array"
        case is [String: Any]: "object"
        default: "\(type(of: value!))"
        }
    }

    static func text(_ value: Any?) -> String { value.map { "\($0)" } ?? "absent" }
}
