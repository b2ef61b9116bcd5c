import FixtureSupport
import Foundation
import Testing

/// Liquidsoap (Debian's) as a live DJ: it encodes two tagged songs to MP3, pushes them to a push mount and names
/// each one through Icecast's admin call with the mount's source credentials, as it does with Icecast 2.4. Its audio
/// and both titles reach a socket subscriber, an ICY listener, and a recording split on titles.
@Suite struct LiquidsoapSourceTests {
    @Test func liquidsoapsAudioAndTitlesReachSubscribersListenersAndTheRecording() throws {
        let folder = try DaemonHarness.makeFolder()
        let titles = ["Song One", "Song Two"]
        for (index, title) in titles.enumerated() {
            _ = try FFmpegTool.run("ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(440 * (index + 1)):duration=4", "-ar", "44100",
                "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "-metadata", "title=\(title)",
                "-metadata", "artist=Tester", folder.appendingPathComponent("song\(index).mp3").path,
            ])
        }
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
              queueSeconds: 60
              record: {path: "rec/{n} {title}.mp3", splitOnTitle: true}
            """, http: "sourcePassword: \(PushSourceTests.password)", folder: folder)
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata")

        let script = folder.appendingPathComponent("dj.liq")
        let songs = titles.indices.map { "once(single(\"\(folder.appendingPathComponent("song\($0).mp3").path)\"))" }
        try """
            settings.init.allow_root.set(true)
            settings.log.stdout.set(true)
            settings.log.file.set(false)
            s = sequence([\(songs.joined(separator: ", "))])
            output.icecast(%mp3(bitrate=128), host="127.0.0.1", port=\(port), password="\(PushSourceTests.password)",
                           mount="live", name="Liquid DJ", fallible=true, on_stop=shutdown, s)
            """.write(to: script, atomically: true, encoding: .utf8)
        let liquidsoap = try ToolProcess("liquidsoap", [script.path], folder: folder, name: "liquidsoap")
        defer { liquidsoap.stop(timeout: 0) }
        try daemon.waitUntil("Liquidsoap's first packets") {
            subscriber.events.contains { $0["event"] as? String == "packet" }
        }
        let listener = try ToolProcess("curl", [
            "-sS", "-N", "-H", "Icy-MetaData: 1", "-D", folder.appendingPathComponent("head.txt").path,
            "-o", folder.appendingPathComponent("body.bin").path, "http://127.0.0.1:\(port)/live",
        ], folder: folder, name: "icy-listener")
        defer { listener.stop(timeout: 0) }

        let ended = liquidsoap.finish()
        #expect(ended.status == 0, "\(ended.errors)")
        try daemon.waitUntil("the DJ to leave") { try daemon.streamStatus("live")?["connected"] as? Bool == false }
        listener.stop()
        let result = try PushSourceTests.finish(subscriber, of: daemon)

        let heard = result.events.compactMap(IcecastTests.title)
        let head = HTTPStreamCheck.headers(try Data(contentsOf: folder.appendingPathComponent("head.txt")))
        let metaint = try #require(Int(head["icy-metaint"] ?? ""), "\(head)")
        let body = try Data(contentsOf: folder.appendingPathComponent("body.bin"))
        let told = HTTPStreamCheck.splitICY(body, metaint: metaint).blocks.compactMap(HTTPStreamCheck.streamTitle)
        let pieces = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("rec").path)
        for title in titles {
            #expect(heard.contains { $0.contains(title) }, "subscriber: \(heard); \(daemon.log)")
            #expect(told.contains { $0.contains(title) }, "listener: \(told)")
            #expect(pieces.contains { $0.contains(title) && $0.hasSuffix(".mp3") }, "pieces: \(pieces)")
        }
        #expect(result.events.count { $0["event"] as? String == "packet" } > 200, "8 s of MP3: over 300 frames")
    }
}
