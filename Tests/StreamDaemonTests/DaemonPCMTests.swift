import FixtureSupport
import Foundation
import Testing

/// The daemon end to end with a WAVE on stdin, as `ffmpeg -f wav - | audiostreamd` gives it: sizes unknown,
/// frames in batches. Expected values from ffprobe (recorded by the fixture script).
@Suite struct DaemonPCMTests {
    @Test func aStreamedWAVEReachesAPacketSubscriberWhole() throws {
        let fixture = try #require(Fixtures.pcm.first { $0.name == "wav-streamed.wav" })
        let facts = try #require(fixture.facts)
        let dataOffset = facts["dataOffset"] as! Int
        let dataBytes = facts["dataBytes"] as! Int
        let bytesPerFrame = dataBytes / (facts["frames"] as! Int)
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties")
        // In uneven pieces, so that frames straddle the reads.
        let bytes = Data(fixture.bytes)
        for start in stride(from: 0, to: bytes.count, by: 1001) {
            daemon.feed(bytes[start..<min(start + 1001, bytes.count)])
        }
        try daemon.closeInput()

        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        let events = result.lines.compactMap(DaemonStdinTests.object)
        let packets = events.filter { $0["event"] as? String == "packet" }
        #expect(!packets.isEmpty)
        var next = dataOffset
        for packet in packets {
            #expect(packet["offset"] as? Int == next)
            let size = packet["size"] as! Int
            #expect(size % bytesPerFrame == 0 && packet["frames"] as? Int == size / bytesPerFrame)
            next += size
        }
        #expect(next == dataOffset + dataBytes)
        #expect(result.output == Data(fixture.bytes[dataOffset..<dataOffset + dataBytes]))
        let format = events.first { $0["event"] as? String == "property" && $0["id"] as? String == "dfmt" }
        #expect((format?["value"] as? [String: Any])?["formatID"] as? String == "lpcm")
        #expect(events.last?["reason"] as? String == "sourceEnded")
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// A WAVE whose samples are in a format not read ends the stream with the reader's reason.
    @Test func aWAVEOfAnotherFormatEndsWithItsReason() throws {
        var bytes = try #require(Fixtures.pcm.first { $0.name == "wav-s16-stereo.wav" }).bytes
        bytes[20] = 0x55  // the fmt chunk's format tag: MPEG Layer III
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        daemon.feed(Data(bytes))

        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        let end = try #require(result.lines.compactMap(DaemonStdinTests.object).last)
        #expect(end["reason"] as? String == "unsupportedFormat")
        let error = try #require(end["error"] as? String)
        #expect(error.hasPrefix("unsupported data format ('fmt?'): the WAVE fmt chunk at 12"))
        // Its only stream failed: the daemon exits with 1, for systemd to restart it.
        #expect(try daemon.waitForExit() == 1, "\(daemon.log)")
    }
}
