import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// What a WAVE or AIFF stream reported: its PCM batches as they came (a batch's size depends on the reads, so
/// tests check what batches cover, not how they are cut), properties, tags, skips and the failure that ended it.
struct PCMRecording {
    struct Batch: Equatable {
        let offset: Int64
        let size: Int
        let frames: Int64
        let firstPacket: Int64
        let followsDiscontinuity: Bool
    }

    var batches: [Batch] = []
    var properties: [AudioFileStreamPropertyID: AudioFileStreamPropertyValue] = [:]
    var tags: [(offset: Int64, metadata: Metadata)] = []
    var discontinuities: [Discontinuity] = []
    var failure: AudioFileStreamFailure?

    /// Parses `bytes` as the chunking says, leaving out `skips` (fed again with the discontinuity flag and their
    /// end offset), or as the ranges `inOrder` (each after the first at its offset), and records what the stream
    /// reported; a failure ends the parse and is recorded.
    static func parse(_ bytes: [UInt8], chunking: Chunking = .whole, skips: [Range<Int>] = [],
                      inOrder ranges: [Range<Int>]? = nil, hint: AudioFileType? = nil,
                      limits: MetadataLimits = MetadataLimits()) throws -> PCMRecording {
        var recording = PCMRecording()
        let stream = try AudioFileStream(fileTypeHint: hint, limits: limits) { event in
            switch event {
            case .packets(let batch):
                #expect(batch.descriptions == nil, "PCM batches carry no descriptions")
                recording.batches.append(Batch(
                    offset: batch.streamOffset, size: batch.bytes.count, frames: batch.frameCount,
                    firstPacket: batch.firstPacketIndex, followsDiscontinuity: batch.followsDiscontinuity))
            case .property(let id, let value): recording.properties[id] = value
            case .metadata(let event): recording.tags.append((event.offset, event.metadata))
            case .discontinuity(let gap): recording.discontinuities.append(gap)
            case .warning: break
            }
        }
        do {
            if let ranges {
                try feed(bytes, inOrder: ranges, to: stream, chunking: chunking)
            } else {
                try feed(bytes, to: stream, chunking: chunking, skips: skips)
            }
        } catch let failure as AudioFileStreamFailure {
            recording.failure = failure
        }
        recording.stream = stream
        return recording
    }

    /// The stream, for its translations.
    var stream: AudioFileStream?

    var byteCount: Int { batches.reduce(0) { $0 + $1.size } }
    var frameCount: Int64 { batches.reduce(0) { $0 + $1.frames } }
    var skippedBytes: Int64 { discontinuities.filter { $0.reason == .resync }.reduce(0) { $0 + $1.skippedBytes } }

    /// True when each batch starts where the previous one ended, the first at `start`.
    func batchesAreContiguous(from start: Int64) -> Bool {
        var next = start
        for batch in batches {
            guard batch.offset == next else { return false }
            next += Int64(batch.size)
        }
        return true
    }
}

/// Builds RIFF and IFF files from chunks, for the bad-input tests.
enum ChunkFile {
    /// `id`, the body's size (`size`, or its length) in the byte order, the body, and a pad byte when odd.
    static func chunk(_ id: String, _ body: [UInt8], size: UInt32? = nil, bigEndian: Bool = false) -> [UInt8] {
        Array(id.utf8) + integer(size ?? UInt32(body.count), bigEndian: bigEndian) + body
            + (body.count % 2 == 1 ? [0] : [])
    }

    static func integer(_ value: UInt32, bigEndian: Bool = false, count: Int = 4) -> [UInt8] {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return bigEndian ? bytes.reversed() : bytes
    }

    /// A WAVE file (`RIFF`, or `RF64`/`BW64`) of `chunks`.
    static func wave(_ chunks: [[UInt8]], outer: String = "RIFF") -> [UInt8] {
        let body = Array("WAVE".utf8) + chunks.flatMap { $0 }
        return Array(outer.utf8) + integer(outer == "RIFF" ? UInt32(body.count) : 0xFFFF_FFFF) + body
    }

    /// A `fmt ` chunk: WAVEFORMATEX's 16 bytes.
    static func format(tag: UInt16 = 1, channels: UInt16 = 2, rate: UInt32 = 44100, bits: UInt16 = 16) -> [UInt8] {
        let align = UInt32(channels) * UInt32((bits + 7) / 8)
        return chunk("fmt ", integer(UInt32(tag), count: 2) + integer(UInt32(channels), count: 2) + integer(rate)
            + integer(rate * align) + integer(align, count: 2) + integer(UInt32(bits), count: 2))
    }

    /// An AIFF or AIFC file of `chunks`.
    static func aiff(_ chunks: [[UInt8]], form: String = "AIFF") -> [UInt8] {
        let body = Array(form.utf8) + chunks.flatMap { $0 }
        return Array("FORM".utf8) + integer(UInt32(body.count), bigEndian: true) + body
    }

    /// A `COMM` chunk; `rate` is the 10 bytes of the 80-bit rate; `compression` makes it AIFC's.
    static func common(channels: UInt16 = 2, frames: UInt32 = 0, bits: UInt16 = 16,
                       rate: [UInt8] = [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0],
                       compression: String? = nil) -> [UInt8] {
        var body = integer(UInt32(channels), bigEndian: true, count: 2) + integer(frames, bigEndian: true)
            + integer(UInt32(bits), bigEndian: true, count: 2) + rate
        if let compression { body += Array(compression.utf8) + [0, 0] }
        return chunk("COMM", body, bigEndian: true)
    }

    /// An `SSND` chunk: offset, block size, then the samples.
    static func sound(_ samples: [UInt8], offset: UInt32 = 0, size: UInt32? = nil) -> [UInt8] {
        chunk("SSND", integer(offset, bigEndian: true) + integer(0, bigEndian: true)
            + Array(repeating: 0xEE, count: Int(offset)) + samples, size: size, bigEndian: true)
    }
}

/// Core Audio's layout tags for ffprobe's layout names; an empty name (ffprobe names none) is the layout the
/// channel count implies.
func expectedLayout(ffprobeName: String, channels: Int) -> AudioChannelLayout? {
    switch ffprobeName {
    case "mono": .mono
    case "stereo": .stereo
    case "5.1": AudioChannelLayout(tag: 121 << 16 | 6)
    case "quad": AudioChannelLayout(tag: 108 << 16 | 4)
    case "4.0": AudioChannelLayout(tag: 115 << 16 | 4)
    case "": channels == 1 ? .mono : channels == 2 ? .stereo : nil
    default: nil
    }
}

/// The checks every WAVE and AIFF fixture passes against what ffprobe and the fixture script's chunk walk
/// recorded.
enum PCMFixtureChecks {
    private static let integer = LinearPCMFormatFlag.isSignedInteger | LinearPCMFormatFlag.isPacked
    private static let float = LinearPCMFormatFlag.isFloat | LinearPCMFormatFlag.isPacked
    private static let bigEndian = LinearPCMFormatFlag.isBigEndian

    /// Core Audio's format id and flags for ffprobe's codec names.
    static let formats: [String: (id: FourCharCode, flags: UInt32)] = [
        "pcm_u8": ("lpcm", LinearPCMFormatFlag.isPacked),
        "pcm_s16le": ("lpcm", integer), "pcm_s24le": ("lpcm", integer), "pcm_s32le": ("lpcm", integer),
        "pcm_s16be": ("lpcm", integer | bigEndian), "pcm_s24be": ("lpcm", integer | bigEndian),
        "pcm_f32le": ("lpcm", float), "pcm_f64le": ("lpcm", float),
        "pcm_f32be": ("lpcm", float | bigEndian), "pcm_f64be": ("lpcm", float | bigEndian),
        "pcm_mulaw": ("ulaw", 0), "pcm_alaw": ("alaw", 0),
    ]

    /// Format, layout, file type, data offset, totals and frames against the record, whole and in odd chunkings;
    /// no batch splits a frame or exceeds the batch cap, and nothing is skipped.
    static func check(_ fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let dataOffset = Int64(facts["dataOffset"] as! Int)
        let dataBytes = facts["dataBytes"] as! Int
        let frames = Int64(facts["frames"] as! Int)
        let bytesPerFrame = dataBytes / Int(frames)
        let channels = facts["channels"] as! Int
        for chunking in [Chunking.whole, .fixed(1), .fixed(7), .fixed(4099), .random(seed: 53)] {
            let recording = try PCMRecording.parse(fixture.bytes, chunking: chunking)
            #expect(recording.failure == nil)
            #expect(recording.byteCount == dataBytes, "\(chunking)")
            #expect(recording.frameCount == frames, "\(chunking)")
            #expect(recording.batchesAreContiguous(from: dataOffset), "\(chunking)")
            #expect(recording.discontinuities.isEmpty, "\(chunking)")
            for batch in recording.batches {
                #expect(batch.size % bytesPerFrame == 0 && batch.frames <= 4096)
                #expect(batch.firstPacket == (batch.offset - dataOffset) / Int64(bytesPerFrame))
            }
            #expect(recording.properties[.dataOffset] == .int64(dataOffset))
        }
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .random(seed: 59))
        let format = try #require(recording.stream?.dataFormat)
        let expected = try #require(formats[facts["codec"] as! String])
        #expect(format.formatID == expected.id)
        #expect(format.formatFlags == expected.flags)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(channels))
        #expect(format.bitsPerChannel == UInt32(facts["bitsPerSample"] as! Int))
        #expect(format.bytesPerFrame == UInt32(bytesPerFrame) && format.bytesPerPacket == UInt32(bytesPerFrame))
        #expect(format.framesPerPacket == 1)
        let layout = try #require(expectedLayout(ffprobeName: facts["channelLayout"] as! String, channels: channels))
        #expect(recording.properties[.channelLayout] == .channelLayout(layout))
        let fileType = AudioFileType(rawValue: FourCharCode(facts["fileType"] as! String))
        #expect(recording.properties[.fileFormat] == .fileType(fileType))
        #expect(recording.properties[.readyToProducePackets] == .uint32(1))
        if fixture.name.contains("streamed") {
            #expect(recording.properties[.audioDataByteCount] == nil)
        } else {
            #expect(recording.properties[.audioDataByteCount] == .uint64(UInt64(dataBytes)))
            #expect(recording.properties[.audioDataPacketCount] == .uint64(UInt64(frames)))
        }
        try checkTranslations(of: try #require(recording.stream), frames: frames, bytesPerFrame: bytesPerFrame)
    }

    /// Frame, packet and byte translations are exact arithmetic, beyond the packets parsed too.
    static func checkTranslations(of stream: AudioFileStream, frames: Int64, bytesPerFrame: Int) throws {
        for packet in [Int64(0), 1, frames - 1, frames * 10] {
            #expect(try stream.frame(forPacket: packet) == packet)
            #expect(try stream.packet(forFrame: packet) == (packet, 0))
            #expect(try stream.byteOffset(ofPacket: packet) == (packet * Int64(bytesPerFrame), false))
            let byte = packet * Int64(bytesPerFrame) + Int64(bytesPerFrame - 1)
            #expect(try stream.packet(forByteOffset: byte) == (packet, bytesPerFrame - 1, false))
        }
    }

    /// The fixture cut where its frames start, right after its sound chunk's header: the format, DataOffset and
    /// readiness are known and no frame is lost; a discontinuity there loses only the frames it skips, in any
    /// chunking.
    static func checkCutWhereTheFramesStart(_ fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let dataOffset = facts["dataOffset"] as! Int
        let frames = Int64(facts["frames"] as! Int)
        let bytesPerFrame = (facts["dataBytes"] as! Int) / Int(frames)
        for chunking in [Chunking.whole, .fixed(1), .fixed(3)] {
            let cut = try PCMRecording.parse(Array(fixture.bytes[..<dataOffset]), chunking: chunking)
            #expect(cut.failure == nil && cut.batches.isEmpty && cut.discontinuities.isEmpty, "\(chunking)")
            #expect(cut.properties[.dataOffset] == .int64(Int64(dataOffset)), "\(chunking)")
            #expect(cut.properties[.readyToProducePackets] == .uint32(1), "\(chunking)")
            let gap = dataOffset..<dataOffset + 3 * bytesPerFrame
            let resumed = try PCMRecording.parse(fixture.bytes, chunking: chunking, skips: [gap])
            #expect(resumed.failure == nil && resumed.frameCount == frames - 3, "\(chunking)")
        }
    }

    /// The fixture cut one byte into a frame: only the whole frames before the cut, and the byte reported as
    /// skipped, in any chunking.
    static func checkCutMidFrame(_ fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let dataOffset = facts["dataOffset"] as! Int
        let bytesPerFrame = (facts["dataBytes"] as! Int) / (facts["frames"] as! Int)
        let cut = Array(fixture.bytes[..<(dataOffset + 5 * bytesPerFrame + 1)])
        for chunking in [Chunking.whole, .fixed(1), .fixed(3)] {
            let recording = try PCMRecording.parse(cut, chunking: chunking)
            #expect(recording.frameCount == 5 && recording.byteCount == 5 * bytesPerFrame, "\(chunking)")
            #expect(recording.discontinuities == [Discontinuity(offset: Int64(cut.count), skippedBytes: 1,
                                                                reason: .resync)], "\(chunking)")
        }
    }
}
