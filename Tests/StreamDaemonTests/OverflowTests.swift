import FixtureSupport
import Foundation
import Testing

/// A full mount: listeners beyond `maxListeners` go to the least loaded overflow peer that has the mount (a real
/// curl and ffmpeg follow the redirect and play from there), never to a dead one, and are refused as Icecast
/// refuses them when no peer can take them; `maxListenerDuration` ends a listener's stay.
@Suite struct OverflowTests {
    static func node(port: UInt16, more: String = "") -> String {
        """
        control: control.sock
        http: {listen: "127.0.0.1:\(port)"}
        streams:
          - name: radio
            source: file:\(HTTPListenerTests.demo.path)
            loop: true
            socket: radio.sock
            mount: /radio.mp3
        \(more)
        """
    }

    @Test func theListenerAfterAHundredGoesToALivePeerAndPlaysThere() throws {
        let peerPort = try FreePort.pick()
        var peer: DaemonHarness? = try DaemonHarness(config: Self.node(port: peerPort))
        try peer?.waitForMount(port: peerPort, "radio")
        let deadPort = try FreePort.pick()
        let port = try FreePort.pick()
        let node = try DaemonHarness(config: Self.node(port: port, more: """
                maxListeners: 100
                overflow: ["http://127.0.0.1:\(deadPort)", "http://127.0.0.1:\(peerPort)"]
            """))
        try node.waitForMount(port: port, "radio")
        try node.waitUntil("the peers to be polled") { node.log.contains("overflow peer http://127.0.0.1:\(peerPort) answers") }

        let listeners = try (0..<100).map { _ in
            let listener = try RawConnection(port: port)
            listener.send("GET /radio.mp3 HTTP/1.0\r\n\r\n")
            return listener
        }
        try node.waitUntil("a hundred listeners") {
            try HTTPListenerTests.mountStatus(port, "radio")?["listeners"] as? Int == 100
        }

        // curl follows the redirect and gets the peer's audio.
        let output = node.path("overflow.mp3")
        // A stream never ends: curl stops after 3 s (exit 28), with what it got.
        let curl = try FFmpegTool.runToEnd("curl", ["-sS", "-L", "-m", "3", "-o", output, "-w",
                                                    "%{url_effective} %{num_redirects}",
                                                    "http://127.0.0.1:\(port)/radio.mp3"])
        #expect(curl.status == 28, "\(curl.errors)")
        #expect(String(decoding: curl.output, as: UTF8.self) == "http://127.0.0.1:\(peerPort)/radio.mp3 1")
        #expect(try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                               output]).output == Data("mp3\n".utf8))
        // So does ffmpeg, which plays two seconds from the peer.
        let played = try FFmpegTool.runToEnd("ffmpeg", ["-v", "error", "-i", "http://127.0.0.1:\(port)/radio.mp3", "-t", "2",
                                                        "-f", "null", "-"])
        #expect(played.status == 0, "\(played.errors)")
        #expect(!node.log.contains("127.0.0.1:\(deadPort)/radio.mp3"))
        #expect(try HTTPListenerTests.mountStatus(port, "radio")?["listeners"] as? Int == 100)

        // With the peer gone too, a full mount refuses as Icecast does.
        peer = nil
        try node.waitUntil("the peer to be seen dead", timeout: 10) {
            node.log.contains("overflow peer http://127.0.0.1:\(peerPort) does not answer")
        }
        let refused = try IcecastServer.get(port: port, path: "/radio.mp3")
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self) == "max listeners reached\n")
        withExtendedLifetime(listeners) {}
    }

    @Test func aListenerLeavesAfterTheMaximumDuration() throws {
        let port = try FreePort.pick()
        let node = try DaemonHarness(config: Self.node(port: port, more: "    maxListenerDuration: 1"))
        try node.waitForMount(port: port, "radio")
        let listener = try RawConnection(port: port)
        listener.send("GET /radio.mp3 HTTP/1.0\r\n\r\n")
        let (answer, closed) = listener.readToEnd(timeout: 15)
        #expect(closed, "the daemon did not end the listener's stay")
        #expect(answer.count > 4_000, "no audio before the end")
        try node.waitUntil("the listener to be gone") {
            try HTTPListenerTests.mountStatus(port, "radio")?["listeners"] as? Int == 0
        }
    }
}
