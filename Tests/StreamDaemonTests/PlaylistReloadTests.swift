import FixtureSupport
import Foundation
import Testing

/// A playlist file edited while an item plays: the item plays on to its end, uncut, and the items that follow
/// come from the new list, whether or not the daemon is told to reload.
@Suite struct PlaylistReloadTests {
    @Test func anEditedPlaylistFileTakesEffectAtTheNextJoin() throws {
        let folder = try DaemonHarness.makeFolder()
        let list = folder.appendingPathComponent("show.m3u")
        try "\(DaemonCompositionTests.alpha)\n".write(to: list, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: show
                socket: show.sock
                source: {playlist: show.m3u, loop: true, pace: 4}
            """, folder: folder)
        let gamma = try DaemonCompositionTests.title(of: DaemonCompositionTests.gamma)
        // Whenever the subscriber joins, the list changes under the item playing; the daemon stops once the new
        // list's item has played whole, or after ten items (when the new list never takes effect).
        let received = try DaemonCompositionTests.receive(from: daemon) {
            try "#EXTM3U\n\(DaemonCompositionTests.gamma)\n".write(to: list, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
        } stopsWhen: { received in
            received.titles.dropLast().contains([gamma]) || received.titles.count > 10
        }
        #expect(received.end?["reason"] as? String == "daemonStopping", "\(received.end ?? [:])")
        #expect(daemon.log.contains("reload"), "\(daemon.log)")
        // Every item that played whole between two joins was uncut, whichever list it came from; once the new
        // list's first came, only its items followed.
        let first = try #require(received.titles.firstIndex(of: [gamma]), "\(received.titles)")
        #expect(received.titles[first...].dropLast().allSatisfy { $0 == [gamma] }, "\(received.titles)")
        let whole = 1..<received.tables.count - 1
        #expect(!whole.isEmpty)
        for segment in whole {
            let table = try #require(received.tables[segment].last)
            let stated = ["primingFrames", "validFrames", "remainderFrames"].reduce(0) { $0 + (table[$1] as? Int ?? 0) }
            #expect(stated == received.packetFrames[segment], "segment \(segment): \(table)")
            #expect(table["validFrames"] as? Int == 3 * 44_100)
        }
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }
}
