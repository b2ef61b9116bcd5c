import FixtureSupport
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
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata,properties")
        // Icecast starts each listener's metadata with the current title.
        try daemon.waitUntil("the first title") { subscriber.events.contains { Self.title($0) == "First Title" } }
        let newTitle = "Second – Tïtle; it's “new” ✓"
        try icecast.setTitle(newTitle)
        try daemon.waitUntil("the new title") { subscriber.events.contains { Self.title($0) == newTitle } }
        try daemon.waitUntil("packets after the new title") { Self.packets(after: newTitle, in: subscriber.events) > 40 }

        // The source goes away and comes back: the mount vanishes, Icecast closes its listeners, and the daemon
        // keeps trying until the mount is back.
        try icecast.stopSource()
        try icecast.startSource(file: Self.demo, title: "Third Title")
        try daemon.waitUntil("packets after the reconnect", timeout: 30) {
            Self.packets(after: "Third Title", in: subscriber.events) > 40
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
        // A reconnect in the instant between the mount's return and its title sees Icecast's empty title first.
        #expect(events.compactMap(Self.title).filter { !$0.isEmpty } == ["First Title", newTitle, "Third Title"])
        let reasons = events.compactMap { $0["event"] as? String == "discontinuity" ? $0["reason"] as? String : nil }
        #expect(reasons.filter { $0 != "resync" } == ["reconnect"])

        // Every packet: on each connection they follow each other without a gap, and their bytes are a stretch
        // of the file.
        let file = try Data(contentsOf: Self.demo)
        let reconnect = events.firstIndex { $0["reason"] as? String == "reconnect" } ?? events.count
        var output = result.output[...]
        for connection in [events[..<reconnect], events[reconnect...]] {
            let packets = connection.filter { $0["event"] as? String == "packet" }
            #expect(packets.count > 40)
            var end = packets.first?["offset"] as? Int ?? 0
            for packet in packets {
                #expect(packet["offset"] as? Int == end)
                end += packet["size"] as! Int
            }
            let size = packets.reduce(0) { $0 + ($1["size"] as! Int) }
            #expect(file.range(of: Data(output.prefix(size))) != nil, "the packets are not a stretch of the file")
            output = output.dropFirst(size)
        }
    }

    /// An Ogg station: a chained Opus file sent to Icecast unchanged, so its title change is a new link of the
    /// chain, not an ICY block. The subscriber gets the cookie and each link's comments, then its packets: those
    /// ffprobe lists for the two files the fixture chains (of the first, those from where Icecast let the
    /// daemon in: after a link's headers it goes on at its current page).
    @Test func anOggStationsTitleChangeIsANewLinkOfTheChain() throws {
        let fixture = Fixtures.ogg.first { $0.name == "ogg-opus-chained.opus" }!
        let expected = fixture.expectedPacketsWithFrames.map { Int($0[1]) }
        let secondLink = try #require(fixture.facts?["partOffsets"] as? [Int])[1]
        let firstLinkCount = fixture.expectedPacketsWithFrames.filter { $0[0] < secondLink }.count
        let icecast = try IcecastServer()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(icecast.url(mount: "/radio.opus"))
                socket: radio.sock
                queueSeconds: 60
                reconnect: {initialDelay: 0.2, maxDelay: 0.5}
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata,properties")
        // The daemon asks for the mount until it is there: it joins early in the first link (4 s of audio in 6 s).
        try icecast.startUpload(file: fixture.file, mount: "/radio.opus", contentType: "audio/ogg", seconds: 6)
        func packetsAfterSecondTitle() -> Int {
            let events = subscriber.events
            guard let second = events.firstIndex(where: Self.isSecondTitle) else { return 0 }
            return events[second...].filter { $0["event"] as? String == "packet" }.count
        }
        try daemon.waitUntil("the second link", timeout: 30) { packetsAfterSecondTitle() > 10 }
        // A subscriber joining now gets the current link's cookie and comments before its first packet.
        let late = try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets,metadata,properties",
                                         folder: daemon.folder, name: "late")
        try daemon.waitUntil("the late subscriber to join") { try daemon.subscriberCount("radio") == 2 }
        try daemon.waitUntil("the upload to end", timeout: 30) { daemon.log.contains("the server ended the stream") }
        daemon.signal(SIGTERM)
        let result = subscriber.finish()
        let lateEvents = late.finish().lines.compactMap(DaemonStdinTests.object)
        let firstPacket = try #require(lateEvents.firstIndex { $0["event"] as? String == "packet" })
        #expect(lateEvents[..<firstPacket].contains { $0["id"] as? String == "mgic" })
        #expect(lateEvents[..<firstPacket].contains(where: Self.isSecondTitle))
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let events = result.lines.compactMap(DaemonStdinTests.object)
        let titles = events.filter { $0["event"] as? String == "metadata" && $0["source"] as? String == "vorbisComment" }
            .compactMap { ($0["tags"] as? [String: Any])?["title"] as? String }
        #expect(titles == ["First", "Second"])
        // The links' OpusHeads are alike: the daemon passes a property on only when it changes.
        #expect(events.firstIndex { $0["id"] as? String == "mgic" }! < events.firstIndex { $0["event"] as? String == "packet" }!)
        let second = try #require(events.firstIndex(where: Self.isSecondTitle))
        let sizes = { (events: ArraySlice<[String: Any]>) in
            events.filter { $0["event"] as? String == "packet" }.map { $0["size"] as! Int }
        }
        let first = sizes(events[..<second])
        #expect(first.count > 10 && expected[..<firstLinkCount].hasSuffix(first))
        #expect(sizes(events[second...]) == Array(expected[firstLinkCount...]))
    }

    static func isSecondTitle(_ event: [String: Any]) -> Bool {
        (event["tags"] as? [String: Any])?["title"] as? String == "Second"
    }

    /// Packets that came after the ICY title `title`.
    static func packets(after title: String, in events: [[String: Any]]) -> Int {
        guard let index = events.firstIndex(where: { Self.title($0) == title }) else { return 0 }
        return events[index...].filter { $0["event"] as? String == "packet" }.count
    }

    static func title(_ event: [String: Any]) -> String? {
        event["source"] as? String == "icy" ? event["streamTitle"] as? String : nil
    }
}

extension ArraySlice where Element: Equatable {
    func hasSuffix(_ suffix: [Element]) -> Bool {
        suffix.count <= count && Array(self[(endIndex - suffix.count)...]) == suffix
    }
}
