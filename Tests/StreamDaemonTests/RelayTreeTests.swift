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

    @Test func anOnDemandRelayConnectsOnlyWhileSomeoneListens() throws {
        let folder = try DaemonHarness.makeFolder()
        let playlist = try IcecastRelayTests.playlist(in: folder)
        let originPort = try FreePort.pick()
        let origin = try DaemonHarness(config: Self.originConfig(port: originPort, playlist: playlist.file))
        try origin.waitForMount(port: originPort, "radio")
        let relayPort = try FreePort.pick()
        let relay = try DaemonHarness(config: """
            control: control.sock
            http: {listen: "127.0.0.1:\(relayPort)"}
            relay: {master: "http://127.0.0.1:\(originPort)", password: relay-secret, interval: 1, onDemand: true,
                    idle: 1, sockets: relay}
            """)
        let originListeners = { try (origin.streamStatus("radio")?["listeners"] as? [Any])?.count ?? -1 }
        // Listed, but not connected: the origin has no listener.
        try relay.waitUntil("the relay to list the mount") { try relay.streamStatus("radio.mp3")?["asleep"] as? Bool == true }
        #expect(try HTTPListenerTests.mountStatus(relayPort, "radio.mp3") != nil)
        usleep(1_500_000)
        #expect(try originListeners() == 0)
        #expect(try relay.streamStatus("radio.mp3")?["connected"] as? Bool == false)

        let looped = Array(repeating: playlist.packets.reduce(Data(), +), count: 3).reduce(Data(), +)
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
                                               folder: folder, name: "relayed")
        try relay.waitUntil("a subscriber to bring the relay") { try originListeners() == 1 }
        withExtendedLifetime(subscriber) {}
        #expect(relay.log.contains("someone is listening: connecting"))
    }
}
