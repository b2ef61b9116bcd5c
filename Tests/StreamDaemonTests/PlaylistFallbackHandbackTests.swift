import FixtureSupport
import Foundation
import Testing

/// A playlist of time ranges as a push stream's fallback, and a DJ who takes over in the middle of one: the DJ's
/// packets are the DJ's whole stream, as ffprobe cuts it, not cut to the range of the item the fallback was
/// playing.
@Suite struct PlaylistFallbackHandbackTests {
    @Test func theMainSourceBackFromAPlaylistFallbackIsNotCutToItsItemsRange() throws {
        let dj = Fixtures.named("sweep-l3-mpeg1.mp3").file
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
              queueSeconds: 60
              fallback: {playlist: [{file: \(FallbackSourceTests.fallbackFile), to: 0.5}], loop: true}
            """, http: "sourcePassword: \(PushSourceTests.password)")
        let subscriber = try daemon.subscribe("live", kinds: "packets,properties")
        try daemon.waitUntil("the fallback to play its items") {
            FallbackSourceTests.states(subscriber.events) == ["fallback"]
                && subscriber.events.count { $0["reason"] as? String == "newSegment" } >= 1
        }
        let client = try RawConnection(port: port)
        client.send(PushSourceTests.legacyHead(password: PushSourceTests.password, name: "DJ"))
        #expect(PushSourceTests.readHead(client) == "HTTP/1.0 200 OK\r\n\r\n")
        client.send(try Data(contentsOf: dj))
        shutdown(client.descriptor, Int32(SHUT_WR))
        try daemon.waitUntil("the DJ to leave and the fallback to be back", timeout: 30) {
            FallbackSourceTests.states(subscriber.events).count >= 4
        }
        let result = try PushSourceTests.finish(subscriber, of: daemon)
        #expect(FallbackSourceTests.states(result.events).prefix(4) == ["fallback", "restored", "lost", "fallback"])

        // The DJ's packets: from the new file that starts them, after `restored`, to the fallback's next one.
        var restored = false
        var files = 0
        var djPackets = 0
        for event in result.events {
            if event["event"] as? String == "source", event["state"] as? String == "restored" { restored = true }
            if restored, event["event"] as? String == "discontinuity", event["reason"] as? String == "input" {
                files += 1
            }
            if files == 1, event["event"] as? String == "packet" { djPackets += 1 }
        }
        let expected = try HTTPStreamCheck.ffprobePackets(dj, folder: daemon.folder).count
        #expect(djPackets == expected, "the DJ's packets: \(djPackets), ffprobe \(expected)")
    }
}
