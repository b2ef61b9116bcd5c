import FixtureSupport
import Foundation
import Testing

/// What moves with a source when it takes the air: its format (read by its own type hint), its station and its
/// title. Nothing of the source that left stays on the air.
@Suite struct SourceHandoverTests {
    /// An Ogg Vorbis station, served as `application/ogg`, ends; its MP3 fallback takes the air and is heard. With
    /// the station's Ogg hint kept for the fallback's file, its MP3 frames were read as junk: silence.
    @Test func aFallbackOfAnotherFormatThanTheStationsIsHeard() throws {
        let vorbis = try Data(contentsOf: PushCodecTests.vorbis)
        let station = try LocalRadioServer(replies: [LocalRadioServer.Reply(
            statusLine: "HTTP/1.0 200 OK", headers: [("content-type", "application/ogg"), ("icy-name", "Ogg FM")],
            body: Array(vorbis))], held: true)
        defer { station.stop() }
        let (daemon, _) = try DaemonHarness.withHTTP("""
            - name: radio
              source: http://127.0.0.1:\(station.port)/live
              socket: radio.sock
              queueSeconds: 60
              reconnect: false
              fallback: {source: "file:\(FallbackSourceTests.fallbackFile)", loop: true}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties")
        station.open()
        try daemon.waitUntil("the fallback's packets") {
            let formats = Self.formats(subscriber.events)
            return formats.first == "vorb" && formats.last == ".mp3"
                && subscriber.events.reversed().prefix { $0["id"] as? String != "dfmt" }.count > 40
        }
        #expect(Self.formats(subscriber.events) == ["vorb", ".mp3"], "\(daemon.log)")
    }

    /// A DJ named by `ice-name` and titled by the admin call plays between AutoDJ items, twice: once the DJ leaves,
    /// listeners are told the stream's own name, the DJ's title is cleared and the AutoDJ's songs are titled by
    /// their tags again; the AutoDJ's items are not taken for silent ones.
    @Test func aDJsStationAndTitleLeaveWithTheDJ() throws {
        let folder = try DaemonHarness.makeFolder()
        let music = folder.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            _ = try FFmpegTool.run("ffmpeg", [
                "-v", "error", "-i", FallbackSourceTests.fallbackFile, "-c", "copy", "-metadata", "title=AutoDJ \(name)",
                music.appendingPathComponent("\(name).mp3").path,
            ])
        }
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: push
              socket: radio.sock
              queueSeconds: 60
              fallback: {playlist: music, loop: true}
            """, http: "sourcePassword: hackme, adminPassword: \(AdminMetadataTests.password)", folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        try daemon.waitUntil("the AutoDJ to play two items") {
            FallbackSourceTests.states(subscriber.events) == ["fallback"]
                && subscriber.events.count { $0["reason"] as? String == "newSegment" } >= 2
        }
        #expect(try Self.stationName(port: port) == "radio")

        for round in 1...2 {
            let dj = try ToolProcess("ffmpeg", [
                "-nostdin", "-v", "error", "-re", "-stream_loop", "2", "-i", FallbackSourceTests.stationFile,
                "-c", "copy", "-f", "mp3", "-ice_name", "DJ Night", "icecast://source:hackme@127.0.0.1:\(port)/radio",
            ], folder: folder, name: "dj-\(round)")
            defer { dj.stop(timeout: 0) }
            try daemon.waitUntil("DJ \(round) on the air") {
                FallbackSourceTests.states(subscriber.events).count { $0 == "restored" } == round
            }
            #expect(try Self.stationName(port: port) == "DJ Night")
            let title = "Live set \(round)"
            #expect(try AdminMetadataTests.call(port, "mount=/radio&mode=updinfo&song=Live+set+\(round)",
                                                folder: folder).status == 200)
            try daemon.waitUntil("the title to reach the subscriber") {
                subscriber.events.contains { IcecastTests.title($0) == title }
            }
            try daemon.waitUntil("DJ \(round) to leave and the AutoDJ to be back", timeout: 30) {
                FallbackSourceTests.states(subscriber.events).count { $0 == "fallback" } == round + 1
            }
            try daemon.waitUntil("the stream's own name for newcomers") { try Self.stationName(port: port) == "radio" }
            let events = subscriber.events
            let djTitle = try #require(events.lastIndex { IcecastTests.title($0) == title })
            #expect(events[djTitle...].contains { IcecastTests.title($0) == "" }, "the DJ's title was not cleared")
            let djStation = try #require(events.lastIndex { Self.station($0) == "DJ Night" })
            #expect(events[djStation...].contains { $0["source"] as? String == "http" && Self.station($0) == nil },
                    "the DJ's station was not cleared for subscribers")
            try daemon.waitUntil("listeners to hear the AutoDJ's title") {
                try Self.listenersTitle(port: port)?.hasPrefix("AutoDJ ") == true
            }
            // The clearing comes before the AutoDJ song's own tag, which it must not undo.
            let back = subscriber.events.suffix(from: try #require(
                subscriber.events.lastIndex { $0["state"] as? String == "fallback" }))
            let cleared = try #require(back.firstIndex { IcecastTests.title($0) == "" })
            let song = try #require(back.firstIndex { Self.tagTitle($0)?.hasPrefix("AutoDJ ") == true })
            #expect(cleared < song)
        }
        // Past the DJs' audio, the AutoDJ's next items hold audio of their own, as before the DJs.
        try daemon.waitUntil("two more AutoDJ items", timeout: 30) {
            let events = subscriber.events
            let back = events.lastIndex { $0["state"] as? String == "fallback" } ?? events.endIndex
            return events[back...].count { $0["reason"] as? String == "newSegment" } >= 2
        }
        #expect(!daemon.log.contains("no audio in"), "\(daemon.log)")
    }

    // MARK: - Helpers

    /// The `formatID` of each `dfmt` announced, in order.
    static func formats(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["id"] as? String == "dfmt" }
            .compactMap { ($0["value"] as? [String: Any])?["formatID"] as? String }
    }

    /// The `icy-name` a newcomer to `/radio` is told.
    static func stationName(port: UInt16) throws -> String? {
        let head = try RawConnection.exchange(port: port, "HEAD /radio HTTP/1.0\r\n\r\n").text
        return head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("icy-name:") }
            .map { $0.dropFirst("icy-name:".count).trimmingCharacters(in: .whitespaces) }
    }

    /// The title ICY listeners of `/radio` were last told, as Icecast's statistics give it.
    static func listenersTitle(port: UInt16) throws -> String? {
        let body = try RawConnection.exchange(port: port, "GET /status-json.xsl HTTP/1.0\r\n\r\n").text
        let json = body.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let stats = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let source = (stats?["icestats"] as? [String: Any])?["source"]
        let mount = (source as? [String: Any]) ?? (source as? [[String: Any]])?.first
        return mount?["title"] as? String
    }

    /// The title of a tag's `metadata` event (ID3 and the like, not ICY).
    static func tagTitle(_ event: [String: Any]) -> String? {
        event["source"] as? String == "icy" ? nil : (event["tags"] as? [String: Any])?["title"] as? String
    }

    /// The station name of an `http` metadata event.
    static func station(_ event: [String: Any]) -> String? {
        event["source"] as? String == "http" ? event["name"] as? String : nil
    }
}
