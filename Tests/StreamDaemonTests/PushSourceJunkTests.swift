import FixtureSupport
import Foundation
import Testing

/// A source client that pushes what the parser cannot read (here a WAVE header stating a sample rate of 0) is
/// never on the air: the stream goes on for the next client, whose packets are all there, as ffprobe cuts them.
@Suite struct PushSourceJunkTests {
    @Test func aClientPushingWhatCannotBeReadLeavesTheStreamToTheNext() throws {
        let (daemon, port) = try PushSourceTests.daemon()
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata")
        var junk = Data("RIFF".utf8) + Data([0xFF, 0xFF, 0, 0]) + Data("WAVEfmt ".utf8) + Data([16, 0, 0, 0])
        junk += Data([1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 16, 0]) + Data("data".utf8) + Data([0, 0, 1, 0])
        junk += Data(count: 65536)
        for (index, bytes) in [junk, try Data(contentsOf: PushSourceTests.short)].enumerated() {
            let client = try RawConnection(port: port)
            client.send(PushSourceTests.legacyHead(password: PushSourceTests.password, name: "DJ \(index)"))
            #expect(PushSourceTests.readHead(client) == "HTTP/1.0 200 OK\r\n\r\n", "\(daemon.log)")
            client.send(bytes)
            shutdown(client.descriptor, Int32(SHUT_WR))
            try daemon.waitUntil("DJ \(index) to leave") {
                try daemon.streamStatus("live")?["reconnects"] as? Int == index
                    && daemon.streamStatus("live")?["connected"] as? Bool == false
            }
        }

        let result = try PushSourceTests.finish(subscriber, of: daemon)
        #expect(PushSourceTests.sourceStates(result.events) == ["connected", "lost", "connected", "lost"])
        let packets = try HTTPStreamCheck.ffprobePackets(PushSourceTests.short, folder: daemon.folder)
        #expect(result.output == packets.reduce(Data(), +), "the second client's packets are not ffprobe's")
    }
}
