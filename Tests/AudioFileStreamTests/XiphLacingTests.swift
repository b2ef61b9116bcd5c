import AudioFileStream
import FixtureSupport
import Testing

/// Xiph lacing as the Vorbis I specification (§A.2 "Encapsulation" with Xiph lacing, as FFmpeg's extradata) has
/// it: the count less one, the sizes but the last in 255-runs, then the packets.
@Suite struct XiphLacingTests {
    @Test func sizesAreRunsOf255EndingBelow255() {
        let packets = [[UInt8](repeating: 1, count: 300), [UInt8](repeating: 2, count: 255), [3, 3]]
        let blob = XiphLacing.pack(packets)
        #expect(Array(blob.prefix(5)) == [2, 255, 45, 255, 0])
        #expect(blob.count == 5 + 300 + 255 + 2)
        #expect(XiphLacing.unpack(blob) == packets)
    }

    @Test func aBlobWhoseSizesOverrunItIsRefused() {
        #expect(XiphLacing.unpack([]) == nil)
        #expect(XiphLacing.unpack([1, 255]) == nil)
        #expect(XiphLacing.unpack([1, 4, 0, 0]) == nil)
        #expect(XiphLacing.unpack([0]) == [[]])
    }

    /// A Vorbis stream's cookie holds its three headers: identification (30 bytes, §4.2.2), comment, setup.
    @Test func aVorbisCookieUnpacksIntoItsThreeHeaders() throws {
        let fixture = try #require(Fixtures.ogg.first { $0.name == "ogg-vorbis-q0-44k-stereo.ogg" })
        var cookie: [UInt8] = []
        let stream = try AudioFileStream { event in
            if case .property(.magicCookieData, .data(let bytes)) = event { cookie = bytes }
        }
        try stream.parse(fixture.bytes)
        try stream.finish()
        let headers = try #require(XiphLacing.unpack(cookie))
        #expect(headers.map { $0.first } == [1, 3, 5])
        #expect(headers.allSatisfy { $0.dropFirst().starts(with: Array("vorbis".utf8)) })
        #expect(headers[0].count == 30)
        #expect(XiphLacing.pack(headers) == cookie)
    }
}
