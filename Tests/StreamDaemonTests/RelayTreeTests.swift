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

    /// An origin playing the playlist, on the air, and an audiostreamd relay of it with `relayOptions` added to
    /// its `relay:`.
    struct Tree {
        let playlist: (file: URL, packets: [Data], titles: Set<String>)
        let origin: DaemonHarness
        let originPort: UInt16
        let relay: DaemonHarness
        let relayPort: UInt16

        init(relayOptions: String = "") throws {
            playlist = try IcecastRelayTests.playlist(in: try DaemonHarness.makeFolder())
            originPort = try FreePort.pick()
            origin = try DaemonHarness(config: RelayTreeTests.originConfig(port: originPort, playlist: playlist.file))
            try origin.waitForMount(port: originPort, "radio")
            relayPort = try FreePort.pick()
            relay = try DaemonHarness(config: """
                control: control.sock
                http: {listen: "127.0.0.1:\(relayPort)"}
                relay: {master: "http://127.0.0.1:\(originPort)", password: relay-secret, interval: 1, sockets: relay\(relayOptions)}
                """)
        }

        /// The origin's packets, looped three times: what listeners may hear a part of.
        var looped: Data { Array(repeating: playlist.packets.reduce(Data(), +), count: 3).reduce(Data(), +) }
    }

    @Test func aRelayAndIcecastCarryEveryMountOfTheOriginWithItsTitles() throws {
        let tree = try Tree()
        let (playlist, origin, originPort, relay, relayPort) =
            (tree.playlist, tree.origin, tree.originPort, tree.relay, tree.relayPort)
        let icecast = try IcecastServer(relaying: IcecastServer.slave(ofPort: originPort, password: "relay-secret"))
        try relay.waitForMount(port: relayPort, "radio.mp3")
        try relay.waitForSocket("relay/radio.mp3.sock")

        // A loop of the playlist at 4x is about 6 s: enough for both titles.
        let looped = tree.looped
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

    @Test func anOnDemandRelayConnectsOnlyWhileSomeoneListens() throws {
        let tree = try Tree(relayOptions: ", onDemand: true, idle: 1")
        let (origin, relay, relayPort) = (tree.origin, tree.relay, tree.relayPort)
        let originListeners = { try (origin.streamStatus("radio")?["listeners"] as? [Any])?.count ?? -1 }
        // Listed, but not connected: the origin has no listener.
        try relay.waitUntil("the relay to list the mount") { try relay.streamStatus("radio.mp3")?["asleep"] as? Bool == true }
        #expect(try HTTPListenerTests.mountStatus(relayPort, "radio.mp3") != nil)
        usleep(1_500_000)
        #expect(try originListeners() == 0)
        #expect(try relay.streamStatus("radio.mp3")?["connected"] as? Bool == false)

        let looped = tree.looped
        for visit in 1...2 {
            let listener = try RawConnection(port: relayPort)
            listener.send("GET /radio.mp3 HTTP/1.0\r\n\r\n")
            let (answer, closed) = listener.readToEnd(timeout: 2)
            #expect(!closed)
            let head = try #require(answer.range(of: Data("\r\n\r\n".utf8)), "visit \(visit): no answer")
            #expect(String(decoding: answer[..<head.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.0 200"))
            let audio = answer[head.upperBound...]
            // Two seconds at four times real time, less the connection's start.
            #expect(audio.count > 20_000, "visit \(visit)")
            #expect(looped.range(of: audio) != nil, "visit \(visit): the audio is not the origin's packets")
            #expect(try originListeners() == 1)
            #expect(try relay.streamStatus("radio.mp3")?["asleep"] as? Bool == false)
            shutdown(listener.descriptor, Int32(SHUT_RDWR))
            // Gone: the relay leaves the origin once no one has listened for `idle`.
            try relay.waitUntil("the relay to leave the origin", timeout: 10) {
                try originListeners() == 0 && relay.streamStatus("radio.mp3")?["asleep"] as? Bool == true
            }
        }

        // A subscriber of the relayed stream's socket brings the relay too.
        let subscriber = try SubscriberProcess(socket: relay.path("relay/radio.mp3.sock"), kinds: "packets",
                                               folder: relay.folder, name: "relayed")
        try relay.waitUntil("a subscriber to bring the relay") { try originListeners() == 1 }
        withExtendedLifetime(subscriber) {}
        #expect(relay.log.contains("someone is listening: connecting"))
    }
}
