import FixtureSupport
import Foundation
import Testing

/// A playlist file edited while an item plays: the item plays on to its end, uncut, and the next comes from the
/// new list, whether or not the daemon is told to reload.
@Suite struct PlaylistReloadTests {
    @Test func anEditedPlaylistFileTakesEffectAtTheNextJoin() throws {
        let folder = try DaemonHarness.makeFolder()
        let list = folder.appendingPathComponent("show.m3u")
        try "\(DaemonCompositionTests.mp3)\n\(DaemonCompositionTests.alpha)\n".write(to: list, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: show
                socket: show.sock
                source: {playlist: show.m3u, pace: 3}
            """, folder: folder)
        let received = try DaemonCompositionTests.receive(from: daemon) {
            try "#EXTM3U\n\(DaemonCompositionTests.mp3)\n\(DaemonCompositionTests.gamma)\n"
                .write(to: list, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
        }
        #expect(received.end?["reason"] as? String == "sourceEnded", "\(daemon.log)")
        #expect(daemon.log.contains("reload"), "\(daemon.log)")
        // One join, to the new list's second item, whose title ffprobe reads.
        #expect(received.titles.count == 2)
        #expect(received.titles.last == [try DaemonCompositionTests.title(of: DaemonCompositionTests.gamma)])
        // The item playing went on uncut: its packets' timestamps run on without a gap to the join.
        let timestamps = received.packetTimestamps
        #expect(timestamps.count > 10)
        for (previous, packet) in zip(timestamps, timestamps.dropFirst()) {
            #expect(packet.timestamp == previous.timestamp + Int64(previous.frames))
        }
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }
}
