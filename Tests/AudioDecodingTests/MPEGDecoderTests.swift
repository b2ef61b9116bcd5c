import AudioFileStream
import FixtureSupport
import AudioDecoding
import Testing

/// Decoding against the `mpg123` program itself: the fixture script recorded the MD5 of `mpg123 -q -s -e s16`
/// and `-e f32` for every fixture, and of the right decode: mpg123's own, except for the streams mpg123 gets
/// wrong, where it is mpg123's decode of their clean parts (Tests/Fixtures/README.md says which and why).
@Suite struct MPEGDecoderTests {
    /// Clean, tagged and spliced streams (damaged ones are resynced differently by design).
    static let decodable = (Fixtures.generated + Fixtures.conformanceStreams).filter { fixture in
        fixture.facts?["decodedS16Md5"] != nil && !fixture.name.hasPrefix("damaged")
    }

    @Test func everyDecodableFixtureIsThere() {
        #expect(Self.decodable.count == 70)
    }

    @Test(arguments: decodable)
    func s16IsBitIdenticalToMPG123(fixture: Fixtures.Fixture) throws {
        let decoded = try decode(fixture.bytes)
        #expect(decoded.errors.isEmpty)
        #expect(try md5(decoded.pcm) == fixture.facts!["decodedS16Md5"] as? String)
    }

    @Test(arguments: decodable)
    func f32IsBitIdenticalToMPG123(fixture: Fixtures.Fixture) throws {
        let decoded = try decode(fixture.bytes, sampleFormat: .float32, chunkSize: 777)
        #expect(try md5(decoded.pcm) == fixture.facts!["decodedF32Md5"] as? String)
    }

    @Test func mpg123ItselfIsMatchedWhereverItIsRight() {
        let differing = Self.decodable.filter { $0.facts!["decodedS16Md5"] as? String != $0.facts!["mpg123S16Md5"] as? String }
        #expect(Set(differing.map(\.name)) == [
            "l3-vbri.mp3", "splice-xing-44k-stereo-22k-mono.mp3", "splice-freeformat-200k-240k.mp3",
            "tags-midstream-id3.mp3",
        ])
    }
}
