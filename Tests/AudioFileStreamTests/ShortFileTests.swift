import FixtureSupport
import Testing

/// A file of a few MPEG frames, too few for the chain of headers a resync asks for, is confirmed by what bounds it:
/// the start of the input before it, and after it the end of the input, a tag, or the zeros a cut or padding
/// leaves. The frame bounds come from the conformance streams' recorded packet lists.
@Suite struct ShortFileTests {
    static let streams = Fixtures.conformanceStreams.filter { $0.name.hasPrefix("l1-") || $0.name.hasPrefix("l2-") }

    /// An ID3v1 trailer with a title.
    static let trailer = Array("TAG".utf8) + Array("Short".utf8) + [UInt8](repeating: 0, count: 119) + [255]

    @Test func everyLayerIAndLayerIIStreamIsTried() {
        #expect(Self.streams.count == 16)
    }

    @Test(arguments: streams)
    func theFirstFramesOfAStreamAreAFileOfTheirOwn(fixture: Fixtures.Fixture) throws {
        let expected = fixture.expectedPackets
        try #require(expected.count >= 4 && expected[0].offset == 0)
        for count in 1...4 {
            let frames = Array(fixture.bytes[..<(Int(expected[count - 1].offset) + expected[count - 1].size)])
            var endings = [("the end of the input", frames), ("an ID3v1 tag", frames + Self.trailer)]
            // A lone frame and junk after it: nothing but its own header vouches for it.
            if count > 1 { endings.append(("zeros", frames + [UInt8](repeating: 0, count: 10))) }
            for (ending, bytes) in endings {
                for chunking in [Chunking.whole, .fixed(7)] {
                    let (packets, _) = try ADTSTests.parsePackets(bytes, chunking: chunking)
                    #expect(packets.map { [$0[0], $0[1]] } == expected.prefix(count).map { [$0.offset, Int64($0.size)] },
                            "\(count) frames, then \(ending), \(chunking)")
                }
            }
        }
    }
}
