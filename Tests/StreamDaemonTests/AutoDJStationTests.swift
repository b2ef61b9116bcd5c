import FixtureSupport
import Foundation
import Testing

/// The station docs/operations.md shows: an AutoDJ (a shuffled folder played as a playlist) under a live DJ who
/// pushes as to Icecast, with titles set by automation through the admin call. The AutoDJ's files are MP3 at
/// 48 kHz and the DJ's at 44.1 kHz, so whose packets are whose shows in the sample rate announced before them.
@Suite struct AutoDJStationTests {
    @Test func aLiveDJTakesOverFromTheAutoDJAndHandsBackWithListenersKept() throws {
        let folder = try DaemonHarness.makeFolder()
        let music = folder.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for name in ["a.mp3", "b.mp3"] {
            try FileManager.default.copyItem(atPath: FallbackSourceTests.fallbackFile,
                                             toPath: music.appendingPathComponent(name).path)
        }
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: push
              socket: radio.sock
              queueSeconds: 60
              fallback: {playlist: music, loop: true, shuffle: true}
            """, http: "sourcePassword: hackme, adminPassword: \(AdminMetadataTests.password)", folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        try daemon.waitUntil("the AutoDJ to play two items") {
            FallbackSourceTests.states(subscriber.events) == ["fallback"]
                && subscriber.events.count { $0["reason"] as? String == "newSegment" } >= 2
        }
        let (listener, heard) = try FallbackSourceTests.listen(port: port, folder: folder)
        defer { listener.stop(timeout: 0) }
        try daemon.waitUntil("the listener to hear the AutoDJ") { heard() > 0 }

        let dj = try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-stream_loop", "4", "-i", FallbackSourceTests.stationFile,
            "-c", "copy", "-f", "mp3", "icecast://source:hackme@127.0.0.1:\(port)/radio",
        ], folder: folder, name: "dj")
        defer { dj.stop(timeout: 0) }
        try daemon.waitUntil("the DJ on the air") { FallbackSourceTests.states(subscriber.events).count >= 2 }
        let title = "Live: DJ Ωmega – 夜"
        let query = "mount=/radio&mode=updinfo&song="
            + title.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try AdminMetadataTests.call(port, query, folder: folder).status == 200)
        try daemon.waitUntil("the title to reach the subscriber") {
            subscriber.events.contains { IcecastTests.title($0) == title }
        }

        try daemon.waitUntil("the DJ to leave and the AutoDJ to be back", timeout: 30) {
            FallbackSourceTests.states(subscriber.events).count >= 4
        }
        let heardWhenBack = heard()
        try daemon.waitUntil("the listener to hear the AutoDJ again") { heard() > heardWhenBack }
        let events = subscriber.events
        #expect(FallbackSourceTests.states(events).prefix(4) == ["fallback", "restored", "lost", "fallback"],
                "\(daemon.log)")
        let rates = events.compactMap { ($0["value"] as? [String: Any])?["sampleRate"] as? Int }
        #expect(rates.prefix(3) == [48000, 44100, 48000], "\(rates)")
        #expect(listener.process.isRunning, "the listener was dropped")
    }
}
