import FixtureSupport
import Foundation
import Testing

/// The daemon as a source of a real Icecast 2 server: its packets and titles reach Icecast's listeners, and when
/// Icecast restarts the output connects again.
@Suite struct IcecastOutputTests {
    @Test func aStreamPushedToIcecastReachesItsListenersAndSurvivesARestart() throws {
        let folder = try DaemonHarness.makeFolder()
        // Two songs of a few seconds, each longer than an ICY interval, looped: the title keeps changing.
        let songs = [Fixtures.named("tags-id3v23.mp3").file, Fixtures.named("tags-id3v22.mp3").file]
        let repeats = HTTPListenerTests.taggedRepeats
        var playlist = Data()
        var packets: [Data] = []
        for song in songs {
            let bytes = try Data(contentsOf: song)
            let songPackets = try HTTPStreamCheck.ffprobePackets(song, folder: folder)
            for _ in 0..<repeats {
                playlist += bytes
                packets += songPackets
            }
        }
        let titles = Set(try songs.map { try HTTPStreamCheck.ffprobeTitle($0, folder: folder) })
        let playlistFile = folder.appendingPathComponent("playlist.mp3")
        try playlist.write(to: playlistFile)

        var icecast = try IcecastServer()
        let port = icecast.port
        let password = icecast.sourcePassword
        try Data((password + "\n").utf8).write(to: folder.appendingPathComponent("icecast-password"))
        let metricsPort = try FreePort.pick()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            metrics: 127.0.0.1:\(metricsPort)
            streams:
              - name: radio
                source: file:playlist.mp3
                loop: true
                socket: radio.sock
                outputs:
                  - icecast: http://source@127.0.0.1:\(port)/pushed.mp3
                    passwordFile: icecast-password
                    reconnect: {initialDelay: 0.2, maxDelay: 1}
            """, folder: folder)
        try daemon.waitUntil("the output's mount on Icecast") { try icecast.mountStatus("/pushed.mp3") != nil }
        // A loop of the playlist is about 7 s of audio (53 kB), sent in real time: 10 s bring both titles.
        let looped = Array(repeating: packets.reduce(Data(), +), count: 3).reduce(Data(), +)
        let listened = try icecast.get("/pushed.mp3", headers: [("Icy-MetaData", "1")], maxBodyBytes: 80_000,
                                       timeout: 30)
        #expect(listened.status == 200, "\(listened.statusLine)")
        #expect(listened.header("content-type") == "audio/mpeg")
        #expect(listened.header("icy-name") == "radio")
        let metaint = Int(listened.header("icy-metaint") ?? "") ?? 0
        // Icecast keeps a title in the mount's charset, ISO-8859-1, other characters as XML character references
        // (`☃` as `&#9731;`): so its listeners get it, and its statistics (UTF-8 JSON) show it.
        let (audio, blocks) = HTTPStreamCheck.splitICY(listened.body, metaint: metaint, latin1: true)
        let latin1 = Set(titles.map { title in
            title.unicodeScalars.map { $0.value < 256 ? String($0) : "&#\($0.value);" }.joined()
        })
        #expect(Set(blocks.compactMap(HTTPStreamCheck.streamTitle).filter { !$0.isEmpty }) == latin1)
        let shown = try #require(try icecast.mountStatus("/pushed.mp3")?["title"] as? String)
        #expect(latin1.contains(shown), "Icecast shows the title as \(shown)")
        #expect(audio.count > 70_000)
        #expect(looped.range(of: audio.dropFirst(4096)) != nil, "Icecast's audio is not the stream's packets")

        // Icecast goes away and comes back on the same port: the output connects again on its own.
        icecast.stop()
        icecast = try IcecastServer(port: port, sourcePassword: password)
        try daemon.waitUntil("the output to connect again", timeout: 30) {
            try icecast.mountStatus("/pushed.mp3") != nil
        }
        let again = try icecast.get("/pushed.mp3", maxBodyBytes: 20_000, timeout: 30)
        #expect(again.body.count == 20_000)
        #expect(looped.range(of: again.body.dropFirst(4096)) != nil)
        let output = (try daemon.streamStatus("radio")?["outputs"] as? [[String: Any]])?.first
        #expect(output?["connected"] as? Bool == true)
        #expect((output?["reconnects"] as? Int ?? 0) >= 1)
        #expect(output?["icecast"] as? String == "http://127.0.0.1:\(port)/pushed.mp3", "no password in the status")
        let series = try MetricsTests.scrape(port: metricsPort)
        let labels = "{stream=\"radio\",output=\"http://127.0.0.1:\(port)/pushed.mp3\"}"
        #expect(series["audiostream_output_connected" + labels] == 1, "\(series.keys.sorted())")
        #expect(series["audiostream_output_reconnects_total" + labels] ?? 0 >= 1)
        #expect(series["audiostream_output_bytes_total" + labels] ?? 0 > 90_000)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }
}
