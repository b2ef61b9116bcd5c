import FixtureSupport
import Foundation
import Testing

/// What a playlist's path and items may be, and how loudly their problems are told.
@Suite struct PlaylistSkipTests {
    /// A named pipe as the playlist's path is refused at once: opening it waited for a writer, holding `--check`
    /// (and a start or reload) for ever, deaf to SIGTERM.
    @Test func aNamedPipeAsThePlaylistIsRefusedWithoutWaiting() throws {
        let folder = try DaemonHarness.makeFolder()
        #expect(mkfifo(folder.appendingPathComponent("list.m3u").path, 0o600) == 0)
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: {playlist: list.m3u, loop: true}
                socket: radio.sock
            """, folder: folder, arguments: ["--check"])
        #expect(try daemon.waitForExit(timeout: 10) != 0)
        #expect(daemon.log.contains("is neither a regular file nor a folder"), "\(daemon.log)")
    }

    /// A looping list of 300 missing files around one that plays, passed several times: each missing file is
    /// told once a minute, not once a pass, and the next warning says how many were held back.
    @Test func aLoopingListOfMissingFilesTellsEachOnceAMinute() throws {
        let folder = try DaemonHarness.makeFolder()
        let missing = (0..<300).map { "gone-\($0).mp3" }
        let list = ([FallbackSourceTests.stationFile] + missing).joined(separator: "\n")
        try list.write(to: folder.appendingPathComponent("list.m3u"), atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: {playlist: list.m3u, loop: true, pace: 4}
                socket: radio.sock
            """, folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties")
        // Each pass plays the 1 s file at 4 times real time: a dozen passes in 3 s.
        try daemon.waitUntil("a dozen passes") {
            subscriber.events.count { $0["reason"] as? String == "newSegment" } >= 12
        }
        let warnings = daemon.log.components(separatedBy: "\n").filter { $0.contains("gone-") && $0.contains("skipped") }
        #expect(warnings.count == missing.count, "\(warnings.count) warnings for \(missing.count) missing files")
        #expect(Set(warnings.map { $0.components(separatedBy: "gone-")[1].prefix { $0 != "." } }).count == missing.count)
    }
}
