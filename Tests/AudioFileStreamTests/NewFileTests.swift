import Testing
import FixtureSupport
@testable import AudioFileStream

/// `markNewFile()`: a file fed again from its first byte, as a looped source does, is read as a new file whose
/// packets follow the first one's in the stream. A discontinuity cannot say this to a container whose headers
/// place its packets (an MP4 sample table): its reader would look for them at the stream's offset, past the file.
/// Expected packets are ffprobe's.
@Suite struct NewFileTests {
    /// Headers before the packets: MP4 with its sample table first, fragmented MP4, CAF with a packet table,
    /// FLAC with its metadata blocks; and an MP3 whose first frame is a Xing frame.
    static let fixtures = [
        MP4Tests.fixture("aac-lc-faststart.m4a"), MP4Tests.fixture("aac-fragmented.mp4"),
        Fixtures.caf.first { $0.name == "caf-aac-44k-stereo.caf" }!,
        Fixtures.flac.first { $0.name == "flac-44k-stereo.flac" }!, Fixtures.named("l3-vbr-v2.mp3"),
    ]

    @Test(arguments: fixtures)
    func aFileFedAgainGivesItsPacketsAgainAfterTheFirstOnes(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        let once = fixture.expectedPackets
        let secondStart = once[0].offset + Int64(bytes.count)
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 3)] {
            let (events, _) = try record { stream in
                try stream.parse(bytes)
                try stream.markNewFile()
                try feed(bytes, to: stream, chunking: chunking)
            }
            #expect(events.packets == once + once.shifted(by: bytes.count), "\(chunking)")
            #expect(events.contains(.packet(offset: secondStart, size: once[0].size, followsDiscontinuity: true)))
            let gaps = events.compactMap { if case .discontinuity(let gap) = $0 { gap } else { nil } }
            #expect(gaps == [Discontinuity(offset: Int64(bytes.count), skippedBytes: 0, reason: .input)], "\(chunking)")
            // The second file's header changes nothing, and its audio goes on in the stream the first made ready.
            for id in [AudioFileStreamPropertyID.dataFormat, .dataOffset, .readyToProducePackets] {
                #expect(events.filter { if case .property(id, _) = $0 { true } else { false } }.count == 1, "\(id)")
            }
        }
    }

    /// A live source's next encoder may send another format than the last one's: the new file's own hint replaces
    /// the stream's. With the Ogg hint kept, the MP3 that follows the Ogg file was read by the Ogg reader as junk.
    @Test func aNewFileOfAnotherFormatIsReadByItsOwnHint() throws {
        let ogg = Fixtures.ogg.first { $0.name == "ogg-vorbis-q0-44k-stereo.ogg" }!
        let mp3 = Fixtures.named("l3-cbr128-joint.mp3")
        for hint in [AudioFileType.mp3, nil] {
            let (events, _) = try record(hint: .ogg) { stream in
                try stream.parse(ogg.bytes)
                try stream.markNewFile(fileTypeHint: hint)
                try stream.parse(mp3.bytes)
                try stream.finish()
            }
            // ffprobe places an Ogg packet at its page: the Ogg file's packets are compared by size.
            let packets = events.packets
            let hintText = hint.map { "\($0)" } ?? "none"
            #expect(packets.prefix(ogg.expectedPackets.count).map(\.size) == ogg.expectedPackets.map(\.size),
                    "hint \(hintText)")
            #expect(Array(packets.dropFirst(ogg.expectedPackets.count))
                        == mp3.expectedPackets.shifted(by: ogg.bytes.count), "hint \(hintText)")
        }
    }

    /// A VBR MP3 whose Xing frame states its average bit rate keeps it in the next file, as in the first: the
    /// next file's first frame does not announce its own.
    @Test func aVBRMP3FedAgainKeepsItsStatedBitRate() throws {
        let bytes = Fixtures.named("l3-vbr-v2.mp3").bytes
        let (events, _) = try record { stream in
            try stream.parse(bytes)
            try stream.markNewFile()
            try feed(bytes, to: stream)
        }
        let bitRates = events.compactMap { if case .property(.bitRate, let rate) = $0 { rate } else { nil } }
        #expect(bitRates.count == 1)
    }

    /// The bytes so far end as at the end of the input: a packet they cut is dropped, and the new file is read
    /// whole from its first byte.
    @Test func aFileCutShortIsEndedBeforeTheNewOne() throws {
        let fixture = MP4Tests.fixture("aac-lc-faststart.m4a")
        let bytes = fixture.bytes
        let packets = fixture.expectedPackets
        let cut = Int(packets[10].offset) + 5
        let (events, _) = try record { stream in
            try stream.parse(Array(bytes[..<cut]))
            try stream.markNewFile()
            try feed(bytes, to: stream)
        }
        #expect(events.packets == Array(packets[..<10]) + packets.shifted(by: cut))
        #expect(events.contains(.discontinuity(Discontinuity(offset: Int64(cut), skippedBytes: 5, reason: .resync))))
        #expect(events.contains(.discontinuity(Discontinuity(offset: Int64(cut), skippedBytes: 0, reason: .input))))
    }

    @Test func aFinishedStreamTakesNoNewFile() throws {
        let stream = try AudioFileStream { _ in }
        try stream.finish()
        #expect(throws: AudioFileStreamError.illegalOperation) { try stream.markNewFile() }
    }
}
