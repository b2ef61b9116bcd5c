import AudioFileStream
import FixtureSupport
import AudioDecoding
import Testing

/// Gapless lengths, discontinuities, format changes and damaged frames.
@Suite struct GaplessAndDamageTests {
    static let lameEncoded = Fixtures.generated.filter { fixture in
        fixture.facts?["lame"] is [String: Any] && fixture.facts?["originalSamples"] is Int
    }

    @Test func everyLAMEFixtureIsThere() {
        #expect(Self.lameEncoded.count == 11)
    }

    @Test(arguments: lameEncoded)
    func decodesToExactlyTheEncodersInputLength(fixture: Fixtures.Fixture) throws {
        // The sample count of the WAV file sox made and the encoder read.
        let decoded = try decode(fixture.bytes)
        #expect(decoded.frames == fixture.facts!["originalSamples"] as! Int)
    }

    @Test func aDiscontinuityResetsTheDecoder() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let bytes = fixture.bytes
        let packets = fixture.expectedPackets
        let cut = Int(packets[20].offset) + 100..<Int(packets[26].offset) + 40
        // A fresh decoder on the bytes after the cut has no bit reservoir from before it; neither may the
        // decoder that sees the cut as a discontinuity.
        let head = try decode(Array(bytes[..<cut.lowerBound]))
        let tail = try decode(Array(bytes[cut.upperBound...]))
        let cutStream = try decode(bytes, skips: [cut])
        #expect(cutStream.pcm == head.pcm + tail.pcm)
        #expect(cutStream.pcm != (try decode(bytes)).pcm)
    }

    @Test func aFormatChangeIsAnnouncedBeforeItsPCM() throws {
        let fixture = Fixtures.named("splice-noxing-48k-32k.mp3")
        let changes = fixture.facts!["formatChanges"] as! [[String: Any]]
        let decoded = try decode(fixture.bytes)
        #expect(decoded.formats.map(\.sampleRate) == [fixture.facts!["sampleRate"] as! Int] + changes.map { $0["sampleRate"] as! Int })
        #expect(decoded.formats.map(\.channels) == [fixture.facts!["channels"] as! Int] + changes.map { $0["channels"] as! Int })
    }

    @Test func framesFailingTheirCRCAreReportedAndLeftOut() throws {
        let fixture = Fixtures.named("l3-crc.mp3")
        var bytes = fixture.bytes
        let damaged = [fixture.expectedPackets[5], fixture.expectedPackets[9]]
        for packet in damaged { bytes[Int(packet.offset) + 8] ^= 0x04 }  // a side-information bit
        let clean = try decode(fixture.bytes)
        let decoded = try decode(bytes)
        #expect(decoded.errors.map(\.message) == damaged.map {
            "CRC mismatch in the packet at offset \($0.offset); skipped"
        })
        // Two frames' worth is missing; gapless trimming at the end then trims less of what remains.
        #expect((clean.frames - 2 * 1152..<clean.frames).contains(decoded.frames), "the rest is decoded")
    }

    @Test func damageWithoutACRCIsConcealedAndDecodingGoesOn() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        var bytes = fixture.bytes
        var random = UInt64(99)
        for packet in fixture.expectedPackets[3...].enumerated().filter({ $0.offset % 4 == 0 }).map(\.element) {
            for position in Int(packet.offset) + 4..<Int(packet.offset) + packet.size {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[position] = UInt8(truncatingIfNeeded: random >> 56)
            }
        }
        let decoded = try decode(bytes)
        #expect(decoded.frames == fixture.expectedPackets.count * 1152)
    }

    /// Packets of another codec are left out with one error per change of codec, never fed to libmpg123: an
    /// ADTS stream spliced with MP3 decodes its MP3 part only.
    @Test func anotherCodecIsReportedOnceAndLeftOut() throws {
        let splice = Fixtures.codecs.first { $0.name == "adts-splice-adts-mp3.aac" }!
        let decoded = try decode(splice.bytes)
        #expect(decoded.errors.count == 1)
        #expect(decoded.errors.first?.description.contains("no MPEG audio decoder for AAC packets") == true)
        let mp3 = try decode(Fixtures.named("l3-noxing.mp3").bytes)
        #expect(decoded.pcm == mp3.pcm)
    }
}
