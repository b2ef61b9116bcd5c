import AudioDecoding
import AudioFileStream
import FixtureSupport
import Testing

/// HE-AAC's decoder output: SBR's doubled rate (and PS's stereo) announced before the first PCM, though the
/// DataFormat states the core's rate and channels, and the edit list, which counts the core's frames, trimmed at
/// the output rate. Bit-identity with ffmpeg is CodecDecoderTests' (the fixtures are among its references).
@Suite struct HEAACDecoderTests {
    static let fixtures = Fixtures.heaac

    /// What the decoder said, in order: a format, or the frames of a PCM buffer.
    enum Said: Equatable {
        case format(PCMFormat)
        case pcm(frames: Int)
        case other
    }

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.count == 2)
    }

    /// The first thing said is ffprobe's output rate and channels, said once; every PCM buffer follows it.
    @Test(arguments: fixtures)
    func theDoubledRateIsAnnouncedBeforeAnyPCM(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        var said: [Said] = []
        let decoder = StreamDecoder(sampleFormat: .int16) { event in
            switch event {
            case .format(let format): said.append(.format(format))
            case .pcm(let buffer): said.append(.pcm(frames: buffer.frames))
            case .error, .unsupportedFormat: said.append(.other)
            }
        }
        let stream = try AudioFileStream(handler: decoder.consume)
        try feed(fixture.bytes, to: stream, chunking: .fixed(1000))
        decoder.finish()
        let output = PCMFormat(sampleRate: facts["sampleRate"] as! Int, channels: facts["channels"] as! Int,
                               sampleFormat: .int16)
        #expect(said.first == .format(output))
        #expect(said.dropFirst().allSatisfy { if case .pcm = $0 { true } else { false } })
        #expect(said.count > 1)
    }

    /// The edit list's priming and length are the core's frames: at SBR's rate the output is twice its valid
    /// frames, as many as ffmpeg's decode cut to the edit (the reference's frames).
    @Test(arguments: fixtures)
    func theEditListIsTrimmedAtTheOutputRate(fixture: Fixtures.Fixture) throws {
        let reference = try #require(DecodeReference.all.first { $0.name == fixture.name })
        var table: PacketTableInfo?
        let decoded = try decode(fixture.bytes) { sampleFormat, handler in
            let decoder = StreamDecoder(sampleFormat: sampleFormat, handler: handler)
            return TableSpy(decoder) { table = $0 }
        }
        let valid = try #require(table).validFrames
        #expect(decoded.frames == reference.frames)
        #expect(Int64(decoded.frames) == 2 * valid)
    }
}

extension HEAACDecoderTests {
    /// ffmpeg cannot read HE-AAC in CAF ('aach'), but the CAF holds the MP4's packets, config and trimming (at
    /// SBR's rate): it decodes to ffmpeg's PCM of the MP4.
    @Test func theCAFDecodesAsFFmpegDecodesTheSamePacketsInMP4() throws {
        let fixture = Fixtures.heaacCAF
        let twin = try #require(fixture.facts?["decodesAs"] as? String)
        let reference = try #require(DecodeReference.all.first { $0.name == twin + ".m4a" })
        let decoded = try decodeAny(fixture.bytes)
        #expect(decoded.errors.isEmpty && decoded.frames == reference.frames)
        #expect(try md5(decoded.pcm) == reference.s16Md5)
    }
}

/// Passes every event to `decoder`, telling `onTable` the PacketTableInfo it sees.
private final class TableSpy: PacketDecoder {
    let decoder: any PacketDecoder
    let onTable: (PacketTableInfo) -> Void
    var sampleFormat: PCMSampleFormat { decoder.sampleFormat }

    init(_ decoder: any PacketDecoder, onTable: @escaping (PacketTableInfo) -> Void) {
        self.decoder = decoder
        self.onTable = onTable
    }

    func consume(_ event: AudioFileStreamEvent) {
        if case .property(.packetTableInfo, .packetTableInfo(let table)) = event { onTable(table) }
        decoder.consume(event)
    }

    func finish() {
        decoder.finish()
    }
}
