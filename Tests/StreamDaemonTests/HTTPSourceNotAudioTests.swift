import FixtureSupport
import Foundation
import Testing

/// A station that sends no audio fails, says why and is tried again, rather than looking connected for ever.
@Suite struct HTTPSourceNotAudioTests {
    @Test func aMaintenancePageIsNotAudio() throws {
        let page = Array("<html><body>Back soon</body></html>".utf8)
        let server = try LocalRadioServer(replies: [LocalRadioServer.Reply(
            statusLine: "HTTP/1.1 200 OK", headers: [("content-type", "text/html; charset=utf-8")], body: page)],
            held: true)
        try Self.expectFailure("not audio: text/html", from: server)
    }

    /// Bytes that hold no frame sync (no 0xFF byte, where every sync format's frames start) served as MP3.
    @Test func noiseServedAsMP3IsNotAudio() throws {
        var state: UInt64 = 1
        let noise = (0..<100_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8((state >> 33) % 255)
        }
        let server = try LocalRadioServer(replies: [LocalRadioServer.Reply(
            statusLine: "HTTP/1.1 200 OK", headers: [("content-type", "audio/mpeg")], body: noise)], held: true)
        try Self.expectFailure("no audio frames in the first 64 KiB", from: server)
    }

    /// A leading ID3v2 tag is not what the bound counts, however large its pictures: a station opening with a
    /// 200 KiB tag is heard, every packet of its audio where ffprobe finds it, past the tag.
    @Test func aLargeLeadingTagIsNotCountedAsNoAudio() throws {
        let music = Fixtures.named("l3-cbr128-joint.mp3")
        // ID3v2.4 (§3.1): a TIT2 frame, then padding, the size syncsafe.
        let title = Array("TIT2".utf8) + [0, 0, 0, 10, 0, 0, 3] + Array("Big cover".utf8)
        let size = 200 * 1024
        let syncsafe = (0..<4).map { UInt8(size >> (7 * (3 - $0)) & 0x7F) }
        let tag = Array("ID3".utf8) + [4, 0, 0] + syncsafe + title + [UInt8](repeating: 0, count: size - title.count)
        let server = try LocalRadioServer(replies: [LocalRadioServer.Reply(
            statusLine: "HTTP/1.1 200 OK", headers: [("content-type", "audio/mpeg")], body: tag + music.bytes)],
            held: true)
        let result = try HTTPSourceTests.receive(from: server)
        let offsets = result.events.filter { $0["event"] as? String == "packet" }.compactMap { $0["offset"] as? Int }
        #expect(offsets == music.expectedPackets.map { tag.count + Int($0.offset) }, "\(result.log)")
        #expect(!result.log.contains("no audio frames"))
    }

    /// The failure reaches a subscriber as a `source` event, `status` as the last error and the log as a warning;
    /// the station is tried again and again.
    static func expectFailure(_ error: String, from server: LocalRadioServer) throws {
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(server.url)
                socket: radio.sock
                reconnect: {initialDelay: 0.05, maxDelay: 0.1}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        server.open()
        try daemon.waitUntil("three failed attempts") {
            try server.requests.count >= 3 && (daemon.streamStatus("radio")?["lastSourceError"] as? String) == error
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        let events = subscriber.finish().lines.compactMap(DaemonStdinTests.object)
        let lost = events.filter { $0["event"] as? String == "source" && $0["state"] as? String == "lost" }
        #expect(lost.count >= 3 && lost.allSatisfy { $0["error"] as? String == error }, "\(events)")
        #expect(!events.contains { $0["event"] as? String == "packet" })
        let logged = daemon.log.split(separator: "\n").filter { $0.contains("source lost: \(error); reconnecting in") }
        #expect(logged.count >= 3, "\(daemon.log)")
    }
}
