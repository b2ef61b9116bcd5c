import Foundation
import Testing

/// The daemon as a listener of a real Icecast 2 server on loopback, fed by ffmpeg as its source client: the
/// station's headers, a title changed through Icecast's admin interface, every packet of the audio.
@Suite struct IcecastTests {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("demo/demo.mp3")

    @Test func subscribersSeeANewTitleAndEveryPacketFromIcecast() throws {
        let icecast = try IcecastServer()
        try icecast.startSource(file: Self.demo, title: "First Title")
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(icecast.url)
                socket: radio.sock
                queueSeconds: 60
                reconnect: {initialDelay: 0.2, maxDelay: 1}
            """)
        try daemon.waitForSocket("radio.sock")
        let subscriber = try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets,metadata,properties",
                                               folder: daemon.folder, name: "radio")
        // Icecast starts each listener's metadata with the current title.
        try daemon.waitUntil("the first title") { subscriber.events.contains { Self.title($0) == "First Title" } }
        let newTitle = "Second – Tïtle; it's “new” ✓"
        try icecast.setTitle(newTitle)
        try daemon.waitUntil("the new title") { subscriber.events.contains { Self.title($0) == newTitle } }
        // A little audio after the change, then the end.
        let packetsAtChange = subscriber.events.filter { $0["event"] as? String == "packet" }.count
        try daemon.waitUntil("packets after the new title") {
            subscriber.events.filter { $0["event"] as? String == "packet" }.count > packetsAtChange + 40
        }
        daemon.signal(SIGTERM)
        let result = subscriber.finish()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(result.status == 0, "\(result.errors)")

        let events = result.lines.compactMap(DaemonStdinTests.object)
        let station = events.first { $0["source"] as? String == "http" }
        #expect(station?["name"] as? String == "Audiostream Test")
        #expect(station?["genre"] as? String == "Testing")
        #expect(station?["contentType"] as? String == "audio/mpeg")
        let titles = events.compactMap(Self.title)
        #expect(titles.first == "First Title" && titles.last == newTitle)

        // Every packet: they follow each other without a gap, and their bytes are the file's, in order.
        let packets = events.filter { $0["event"] as? String == "packet" }
        #expect(packets.count > 40)
        var end = packets.first?["offset"] as? Int ?? 0
        for packet in packets {
            #expect(packet["offset"] as? Int == end)
            end += packet["size"] as! Int
        }
        #expect(!events.contains { $0["event"] as? String == "discontinuity" && $0["reason"] as? String != "resync" })
        let file = try Data(contentsOf: Self.demo)
        #expect(file.range(of: result.output) != nil, "the packets are not a stretch of the file")
    }

    static func title(_ event: [String: Any]) -> String? {
        event["source"] as? String == "icy" ? event["streamTitle"] as? String : nil
    }
}
