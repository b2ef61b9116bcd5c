import FixtureSupport
import Foundation
import Testing

/// A tree of three on loopback: an origin audiostreamd, an audiostreamd relaying every mount it lists
/// (`relay:`), and a real icecast2 relaying it through `<master-server>`.
@Suite struct RelayTreeTests {
    /// The origin's configuration: its playlist as `/radio.mp3`, and `more` streams.
    static func originConfig(port: UInt16, playlist: URL, more: String = "") -> String {
        """
        control: control.sock
        http: {listen: "127.0.0.1:\(port)", relayPassword: relay-secret}
        streams:
          - {name: radio, source: "file:\(playlist.path)", loop: true, pace: 4, socket: radio.sock, mount: /radio.mp3}
        \(more)
        """
    }

    @Test func aRelayAndIcecastCarryEveryMountOfTheOriginWithItsTitles() throws {
        let folder = try DaemonHarness.makeFolder()
        let playlist = try IcecastRelayTests.playlist(in: folder)
        let originPort = try FreePort.pick()
        let origin = try DaemonHarness(config: Self.originConfig(port: originPort, playlist: playlist.file))
        try origin.waitForMount(port: originPort, "radio")

        let relayPort = try FreePort.pick()
        let relay = try DaemonHarness(config: """
            control: control.sock
            http: {listen: "127.0.0.1:\(relayPort)"}
            relay: {master: "http://127.0.0.1:\(originPort)", password: relay-secret, interval: 1, sockets: relay}
            """)
        let icecast = try IcecastServer(relaying: """
            <master-server>127.0.0.1</master-server>
            <master-server-port>\(originPort)</master-server-port>
            <master-update-interval>1</master-update-interval>
            <master-password>relay-secret</master-password>
            <relays-on-demand>0</relays-on-demand>
            """)
        try relay.waitForMount(port: relayPort, "radio.mp3")
        try relay.waitForSocket("relay/radio.mp3.sock")

        // A loop of the playlist at 4x is about 6 s: enough for both titles.
        let looped = Array(repeating: playlist.packets.reduce(Data(), +), count: 3).reduce(Data(), +)
        let response = try IcecastServer.get(port: relayPort, path: "/radio.mp3", headers: [("Icy-MetaData", "1")],
                                             maxBodyBytes: 600_000, timeout: 30)
        #expect(response.status == 200, "\(response.statusLine)")
        let (audio, blocks) = HTTPStreamCheck.splitICY(response.body, metaint: Int(response.header("icy-metaint") ?? "") ?? 0)
        #expect(Set(blocks.compactMap(HTTPStreamCheck.streamTitle).filter { !$0.isEmpty }) == playlist.titles)
        #expect(audio.count > 400_000)
        // The relay starts its listeners on a frame, as the origin does: every byte is the origin's packets.
        #expect(looped.range(of: audio) != nil, "the relayed audio is not the origin's packets")

        try relay.waitUntil("Icecast to relay the origin", timeout: 30) { try icecast.mountStatus("/radio.mp3") != nil }
        let fromIcecast = try icecast.get("/radio.mp3", headers: [("Icy-MetaData", "1")], maxBodyBytes: 600_000,
                                          timeout: 30)
        let (icecastAudio, icecastBlocks) = HTTPStreamCheck.splitICY(
            fromIcecast.body, metaint: Int(fromIcecast.header("icy-metaint") ?? "") ?? 0)
        #expect(Set(icecastBlocks.compactMap(HTTPStreamCheck.streamTitle).filter { !$0.isEmpty }) == playlist.titles)
        // Icecast starts its listener on any byte: past the first frame the audio is the packets.
        #expect(looped.range(of: icecastAudio.dropFirst(4096)) != nil, "Icecast's audio is not the origin's packets")

        // A mount added to the origin appears at both relays within their interval (1 s) and a connection.
        try Self.originConfig(port: originPort, playlist: playlist.file, more: """
              - {name: jazz, source: "file:\(HTTPListenerTests.demo.path)", loop: true, socket: jazz.sock}
            """).write(toFile: origin.path("config.yaml"), atomically: true, encoding: .utf8)
        origin.signal(SIGHUP)
        try origin.waitForMount(port: originPort, "jazz")
        try relay.waitUntil("the relay to carry the new mount", timeout: 5) {
            try HTTPListenerTests.mountStatus(relayPort, "jazz")?["contentType"] is String
        }
        try relay.waitUntil("Icecast to carry the new mount", timeout: 5) { try icecast.mountStatus("/jazz") != nil }
        #expect(try IcecastServer.get(port: relayPort, path: "/jazz", maxBodyBytes: 20_000).body.count == 20_000)

        // And a mount the origin drops leaves the relay.
        try Self.originConfig(port: originPort, playlist: playlist.file)
            .write(toFile: origin.path("config.yaml"), atomically: true, encoding: .utf8)
        origin.signal(SIGHUP)
        try relay.waitUntil("the relay to drop the mount", timeout: 5) {
            try HTTPListenerTests.mountStatus(relayPort, "jazz") == nil
        }
        #expect(try HTTPListenerTests.mountStatus(relayPort, "radio.mp3") != nil)
        #expect(relay.log.contains("the master lists 1 mounts: /radio.mp3"))
    }
}
