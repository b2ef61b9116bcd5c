import FixtureSupport
import Testing
@testable import AudioFileStream

/// AIFC of Apple's IMA4 ADPCM against ffprobe and the fixture script's walk of COMM: constant-size packets of
/// 64 frames, cut from the SSND chunk as CAF's IMA4 is, delivered without descriptions in any chunking.
@Suite struct AIFCIMA4Tests {
    static let fixtures = Fixtures.ima4

    @Test func everyFixtureIsThere() {
        #expect(Self.fixtures.map(\.name) == ["aifc-ima4-44k-stereo.aifc"])
    }

    /// Each batch's bytes, cut at the DataFormat's packet size, are ffprobe's packets, and each batch's first
    /// packet number is its place among them.
    @Test(arguments: fixtures)
    func packetsAreFFprobesInAnyChunking(fixture: Fixtures.Fixture) throws {
        let expected = fixture.expectedPacketsWithFrames
        for chunking in [Chunking.whole, .fixed(1), .fixed(7), .fixed(4099), .random(seed: 61)] {
            let recording = try PCMRecording.parse(fixture.bytes, chunking: chunking)
            let format = try #require(recording.stream?.dataFormat)
            let (size, frames) = (Int64(format.bytesPerPacket), Int64(format.framesPerPacket))
            var packets: [[Int64]] = []
            for batch in recording.batches {
                #expect(batch.size % Int(size) == 0 && batch.frames <= 4096, "\(chunking)")
                #expect(batch.firstPacket == Int64(packets.count), "\(chunking)")
                packets += stride(from: batch.offset, to: batch.offset + Int64(batch.size), by: Int(size)).map {
                    [$0, size, frames]
                }
            }
            #expect(packets == expected, "\(chunking)")
            #expect(recording.failure == nil && recording.discontinuities.isEmpty, "\(chunking)")
        }
    }

    /// The DataFormat is IMA4's as CAF states it, at ffprobe's rate and channels; the totals are COMM's (which
    /// counts packets in AIFC's IMA4) and ffprobe's.
    @Test(arguments: fixtures)
    func formatAndTotalsMatchFFprobe(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let channels = facts["channels"] as! Int
        let packetCount = facts["packetCount"] as! Int
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .random(seed: 67))
        let format = try #require(recording.stream?.dataFormat)
        #expect(format.formatID.description == facts["codecTag"] as? String)
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(channels))
        #expect(format.bytesPerPacket == UInt32((facts["dataBytes"] as! Int) / packetCount))
        #expect(format.framesPerPacket == UInt32((facts["frames"] as! Int) / packetCount))
        #expect(format.bytesPerFrame == 0 && format.bitsPerChannel == 0)
        #expect(recording.properties[.fileFormat] == .fileType(.aifc))
        #expect(recording.properties[.dataOffset] == .int64(Int64(facts["dataOffset"] as! Int)))
        #expect(recording.properties[.audioDataPacketCount] == .uint64(UInt64(facts["commFrames"] as! Int)))
        #expect(recording.properties[.audioDataByteCount] == .uint64(UInt64(facts["dataBytes"] as! Int)))
        let layout = try #require(expectedLayout(ffprobeName: facts["channelLayout"] as! String, channels: channels))
        #expect(recording.properties[.channelLayout] == .channelLayout(layout))
        let stream = try #require(recording.stream)
        #expect(try stream.frame(forPacket: 10) == 10 * Int64(format.framesPerPacket))
    }

    /// Bytes cut out of the samples: the packets wholly outside the gap are delivered, found again by position.
    @Test(arguments: fixtures)
    func aGapLosesOnlyThePacketsItTouches(fixture: Fixtures.Fixture) throws {
        let rows = fixture.expectedPacketsWithFrames
        let start = Int(rows[0][0])
        let gap = start + 1001..<start + 1500
        let recording = try PCMRecording.parse(fixture.bytes, chunking: .random(seed: 71), skips: [gap])
        let size = Int64(try #require(recording.stream?.dataFormat).bytesPerPacket)
        let delivered = recording.batches.flatMap { batch in
            stride(from: batch.offset, to: batch.offset + Int64(batch.size), by: Int(size)).map { $0 }
        }
        let kept = rows.filter { $0[0] + $0[1] <= Int64(gap.lowerBound) || $0[0] >= Int64(gap.upperBound) }
        #expect(delivered == kept.map { $0[0] })
    }
}
