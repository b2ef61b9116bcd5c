import AudioDecoding
import AudioFileStream
import FixtureSupport
import Testing

/// Every decoder against ffmpeg itself: the fixture script recorded the MD5 of `ffmpeg -f s16le` and
/// `-f f32le` for every ADTS, AC-3, E-AC-3, Ogg (Opus, Vorbis, FLAC), FLAC, WAVE, AIFF, CAF, MP4 and HE-AAC fixture. ffmpeg
/// trims as we do Opus pre-skip and Ogg end trimming from granule positions, nothing for ADTS and AC-3, which
/// state no gapless information; where it applies a container's gapless information only in part (an MP4 edit's
/// end, a CAF packet table), the reference is its PCM cut to what the container states. The fixtures left out, and why, are listed in make_decode_references.py (damaged streams that
/// ffmpeg resyncs by rules of its own, splices and rate changes it does not follow).
@Suite struct CodecDecoderTests {
    static let references = DecodeReference.all

    @Test func everyReferenceIsThere() {
        #expect(Self.references.count == 100)
        #expect(Self.references.filter { $0.streamInfo != nil }.count == 13)
    }

    @Test(arguments: references)
    func s16IsBitIdenticalToFFmpeg(reference: DecodeReference) throws {
        let decoded = try decodeAny(reference.bytes)
        #expect(decoded.errors.isEmpty && decoded.unsupportedFormats.isEmpty)
        #expect(decoded.frames == reference.frames)
        #expect(try md5(decoded.pcm) == reference.s16Md5)
    }

    @Test(arguments: references)
    func f32IsBitIdenticalToFFmpeg(reference: DecodeReference) throws {
        let decoded = try decodeAny(reference.bytes, sampleFormat: .float32, chunkSize: 777)
        #expect(try md5(decoded.pcm) == reference.f32Md5)
    }

    /// FLAC's own check: the MD5 of the samples at their bit depth, little-endian in whole bytes, as STREAMINFO
    /// states it. The float output holds every sample of up to 24 bits exactly.
    @Test(arguments: references.filter { $0.streamInfo != nil })
    func flacMatchesItsStreamInfoMD5(reference: DecodeReference) throws {
        let (expected, bits) = reference.streamInfo!
        let decoded = try decodeAny(reference.bytes, sampleFormat: .float32)
        let bytesPerSample = (bits + 7) / 8
        var samples: [UInt8] = []
        samples.reserveCapacity(decoded.pcm.count / 4 * bytesPerSample)
        decoded.pcm.withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: Float.self) {
                let value = Int32((sample * Float(1 << (bits - 1))).rounded())
                for byte in 0..<bytesPerSample { samples.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
            }
        }
        #expect(try md5(samples) == expected)
    }

    /// A discontinuity resets the codec: after a cut, the output is what a decoder starting at the cut gives.
    @Test(arguments: ["adts-lc-44k-stereo.aac", "ac3-48k-stereo-192k.ac3", "eac3-48k-5.1-256k.eac3", "flac-44k-stereo.flac"])
    func aDiscontinuityResetsTheCodec(name: String) throws {
        let bytes = Self.references.first { $0.name == name }!.bytes
        let cut = bytes.count / 3..<bytes.count / 2
        let head = try decodeAny(Array(bytes[..<cut.lowerBound]))
        let tail = try decodeAny(Array(bytes[cut.upperBound...]))
        let cutStream = try decodeAny(bytes, skips: [cut])
        #expect(try md5(cutStream.pcm) == md5(head.pcm + tail.pcm))
    }

    /// A gap in an AIFC's IMA4 samples: the packets before it decode as in the whole file, the packets it leaves
    /// whole after it decode too (the codec starts afresh there), and only the packets it touches are lost.
    @Test func aGapInIMA4LosesOnlyThePacketsItTouches() throws {
        let fixture = try #require(Fixtures.ima4.first)
        let rows = fixture.expectedPacketsWithFrames
        let gap = Int(rows[0][0]) + 1001..<Int(rows[0][0]) + 1500
        let whole = try decodeAny(fixture.bytes)
        let cut = try decodeAny(fixture.bytes, skips: [gap])
        let before = rows.filter { $0[0] + $0[1] <= gap.lowerBound }
        let after = rows.filter { $0[0] >= gap.upperBound }
        let bytesBefore = whole.pcm.count / rows.count * before.count
        #expect(cut.errors.isEmpty && before.count + after.count < rows.count - 1)
        #expect(cut.frames == (before + after).reduce(0) { $0 + Int($1[2]) })
        #expect(cut.pcm.prefix(bytesBefore) == whole.pcm.prefix(bytesBefore))
    }

    /// A stream spliced from AAC to MP3 and back changes decoder at each DataFormat: the MP3 part decodes as
    /// mpg123 alone decodes it, after what the AAC decoder held.
    @Test func aCodecChangeSwitchesDecoder() throws {
        let splice = Fixtures.codecs.first { $0.name == "adts-splice-adts-mp3.aac" }!
        let decoded = try decodeAny(splice.bytes)
        let mp3 = try decode(Fixtures.named("l3-noxing.mp3").bytes)
        #expect(decoded.errors.isEmpty && decoded.unsupportedFormats.isEmpty)
        #expect(decoded.formats.count == 2)
        #expect(try md5(Array(decoded.pcm.suffix(mp3.pcm.count))) == md5(mp3.pcm))
    }
}
