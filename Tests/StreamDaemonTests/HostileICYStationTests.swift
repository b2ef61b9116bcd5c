import FixtureSupport
import Foundation
import Testing

/// A station whose ICY blocks hold what no builder of text expected takes down neither its stream nor the daemon.
@Suite struct HostileICYStationTests {
    /// A StreamUrl of 2,040 bytes of 0xE9 (not UTF-8: read as Windows-1252, 4,080 bytes of "é") once made the
    /// daemon trap while it built the block for listeners, with no `http:` section at all.
    @Test func aBlockTooLongToRelayIsReportedAndTheStreamGoesOn() throws {
        let audio = ICYFixture("icy-metaint64").source
        let metaint = 4096
        let blocks = [
            Array("StreamTitle='One';".utf8),
            Array("StreamTitle='Two';StreamUrl='".utf8) + Array(repeating: 0xE9, count: 2040) + Array("';".utf8),
            Array("StreamTitle='Three';".utf8),
        ]
        var body: [UInt8] = []
        var position = 0
        var nextBlock = 0
        while position < audio.count {
            let end = min(position + metaint, audio.count)
            body += audio[position..<end]
            position = end
            guard position < audio.count else { break }
            if nextBlock < blocks.count {
                let text = blocks[nextBlock]
                let units = (text.count + 15) / 16
                body += [UInt8(units)] + text + Array(repeating: 0, count: units * 16 - text.count)
                nextBlock += 1
            } else {
                body.append(0)
            }
        }
        try #require(nextBlock == blocks.count, "the audio is too short for every block")
        let server = try LocalRadioServer(replies: [.icy(body, metaint: metaint)], held: true)
        let result = try HTTPSourceTests.receive(from: server)

        #expect(result.status == 0, "\(result.errors)")
        let titles = result.events.filter { $0["source"] as? String == "icy" }.map { $0["streamTitle"] as? String }
        #expect(titles == ["One", "Two", "Three"])
        let url = result.events.first { $0["streamTitle"] as? String == "Two" }?["streamUrl"] as? String
        #expect(url == String(repeating: "é", count: 2040))
    }
}
