import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// Boxes that lie, each a clear error and never a false packet, a hang or memory by a claimed count: hand-built
/// boxes, and the faststart AAC fixture with one field changed.
@Suite struct MP4BadInputTests {
    static func box(_ type: String, _ content: [UInt8] = []) -> [UInt8] {
        bigEndian(UInt32(8 + content.count)) + Array(type.utf8) + content
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    static let ftyp = box("ftyp", Array("M4A ".utf8) + [0, 0, 0, 0] + Array("M4A isom".utf8))
    static let faststart = Fixtures.mp4.first { $0.name == "aac-lc-faststart.m4a" }!.bytes

    /// The failure parsing `bytes` ends with, fed whole and byte by byte, and whether a packet came before it.
    static func failure(_ bytes: [UInt8]) throws -> (failure: AudioFileStreamFailure, packets: Int) {
        var packets = 0
        var first: AudioFileStreamFailure?
        for chunking in [Chunking.whole, .fixed(1)] {
            packets = 0
            let stream = try AudioFileStream { event in
                if case .packets(let batch) = event { packets += batch.descriptions!.count }
            }
            let failure = try #require(throws: AudioFileStreamFailure.self) { try feed(bytes, to: stream, chunking: chunking) }
            #expect(first == nil || first == failure, "the same failure in any chunking")
            first = failure
        }
        return (first!, packets)
    }

    /// The position of the first `type` box's header in `bytes`.
    static func position(of type: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(type.utf8)
        return (4..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(pattern) }! - 4
    }

    static func patched(_ bytes: [UInt8], at position: Int, _ value: UInt32) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(position..<position + 4, with: bigEndian(value))
        return bytes
    }

    @Test func aSizeSmallerThanTheHeaderIsInvalid() throws {
        let bytes = Self.ftyp + Self.bigEndian(4) + Array("free".utf8) + [UInt8](repeating: 0, count: 16)
        let result = try Self.failure(bytes)
        #expect(result.failure.error == .invalidFile)
        #expect(result.failure.reason.contains("less than its 8-byte header"))
    }

    /// A size of 0 runs to the end of the file: legal for a last mdat, which then streams whole; a moov must
    /// state its size, since it is held whole.
    @Test func aSizeOfZeroRunsToTheEnd() throws {
        let mdat = Self.position(of: "mdat", in: Self.faststart)
        let parse = try MP4Tests.parse(Self.patched(Self.faststart, at: mdat, 0))
        #expect(parse.packets.count == MP4Tests.streamable.first { $0.name == "aac-lc-faststart.m4a" }!.expectedPackets.count)
        let moov = Self.position(of: "moov", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: moov, 0))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("does not state its size"))
    }

    /// A moov that claims more bytes than the stream holds: the stream's end is an error, not a wait.
    @Test func aMoovPastTheEndIsInvalid() throws {
        let moov = Self.position(of: "moov", in: Self.faststart)
        let bytes = Array(Self.faststart[..<(moov + 200)])
        let result = try Self.failure(bytes)
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("the stream ends"))
    }

    /// A box inside the moov that runs past the moov's end.
    @Test func aChildPastItsParentIsInvalid() throws {
        let stsd = Self.position(of: "stsd", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: stsd, 0x0010_0000))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("runs past the box that holds it"))
        #expect(result.packets == 0)
    }

    /// Containers nested past `MP4Box.maximumDepth`.
    @Test func nestingPastTheDepthIsInvalid() throws {
        var nested = Self.box("mdhd", [UInt8](repeating: 0, count: 24))
        for _ in 0..<MP4Box.maximumDepth + 2 { nested = Self.box("mdia", nested) }
        let result = try Self.failure(Self.ftyp + Self.box("moov", Self.box("trak", nested)))
        #expect(result.failure.error == .invalidFile)
        #expect(result.failure.reason.contains("nested more than \(MP4Box.maximumDepth) deep"))
    }

    /// An stsz promising 2^31 samples in a box of a few hundred bytes fails before anything is allocated for them.
    @Test func anStszPromisingTwoBillionSamplesIsInvalid() throws {
        let stsz = Self.position(of: "stsz", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: stsz + 16, 1 << 31))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("claims 2147483648 entries"))
    }

    /// Before that failure the moov's format and length are announced, as mutagen and AVAsset read them (infloop.m4a
    /// and nero-chapters.m4b have such tables): the edit list over the durations stts gives, as over the sizes (the
    /// remainder alone differs: stts gives the last packet the frames it holds, the sizes count whole packets).
    @Test func aBrokenSampleTableStillStatesTheFormatAndLength() throws {
        let intact = try parse(Self.faststart).stream
        let stsz = Self.position(of: "stsz", in: Self.faststart)
        let stream = try AudioFileStream { event in
            #expect(!{ if case .packets = event { true } else { false } }(), "no packet")
        }
        #expect(throws: AudioFileStreamFailure.self) {
            try feed(Self.patched(Self.faststart, at: stsz + 16, 1 << 31), to: stream)
        }
        #expect(stream.dataFormat == intact.dataFormat)
        guard case .packetTableInfo(let table) = try stream.property(.packetTableInfo),
              case .packetTableInfo(let intactTable) = try intact.property(.packetTableInfo) else {
            Issue.record("no packet table")
            return
        }
        #expect(table.validFrames == intactTable.validFrames && table.primingFrames == intactTable.primingFrames)
        #expect(stream.duration?.seconds == intact.duration?.seconds)
    }

    /// A moov above `MP4Reader.largestMovie` fails at its header, before any of it is held.
    @Test func aMoovAboveTheCapIsInvalid() throws {
        var held = 0
        let stream = try AudioFileStream { _ in }
        let bytes = Self.ftyp + Self.bigEndian(UInt32(MP4Reader.largestMovie + 1)) + Array("moov".utf8)
        let failure = try #require(throws: AudioFileStreamFailure.self) {
            try stream.parse(bytes + [UInt8](repeating: 0, count: 1000))
            held = stream.bufferedByteCount
        }
        #expect(failure.error == .invalidFile && failure.reason.contains("more than the \(MP4Reader.largestMovie)"))
        #expect(held == 0)
    }

    /// A chunk offset before the mdat's data: the sample lies outside the media data.
    @Test func aSampleBeforeTheMediaDataIsInvalid() throws {
        let stco = Self.position(of: "stco", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: stco + 16, 100))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("outside the media data"))
        #expect(result.packets == 0)
    }

    /// Chunks that overlap (the second starting where the first does) or go backwards: the audio track of the
    /// file with a video track, whose chunks interleave with the video's.
    @Test func overlappingChunksAreInvalid() throws {
        let bytes = Fixtures.mp4.first { $0.name == "video-and-aac.mp4" }!.bytes
        let videoTable = Self.position(of: "stco", in: bytes)
        let stco = videoTable + 8 + Self.position(of: "stco", in: Array(bytes[(videoTable + 8)...]))
        let first = bytes[stco + 16..<stco + 20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let result = try Self.failure(Self.patched(bytes, at: stco + 20, first))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("not in stream order"))
        #expect(result.packets == 0)
    }

    /// An mdat that ends before the samples it should hold: the sample across its end is an error.
    @Test func aSampleAcrossTheMdatsEndIsInvalid() throws {
        let mdat = Self.position(of: "mdat", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: mdat, 100))
        #expect(result.failure.error == .invalidFile && result.failure.reason.contains("runs past the end"))
    }

    /// A stream without a readable audio track is refused at its mdat.
    @Test func aMovieWithoutAudioIsUnsupported() throws {
        let hdlr = Self.position(of: "hdlr", in: Self.faststart)
        let result = try Self.failure(Self.patched(Self.faststart, at: hdlr + 16, FourCharCode("vide").rawValue))
        #expect(result.failure.error == .unsupportedDataFormat)
    }

    /// After a failure every call throws it again.
    @Test func aFailedStreamStaysFailed() throws {
        let stream = try AudioFileStream { _ in }
        let bytes = Self.ftyp + Self.bigEndian(4) + Array("free".utf8)
        #expect(throws: AudioFileStreamFailure.self) { try stream.parse(bytes) }
        #expect(throws: AudioFileStreamFailure.self) { try stream.parse([0]) }
        #expect(throws: AudioFileStreamFailure.self) { try stream.markDiscontinuity(.input) }
        #expect(throws: AudioFileStreamFailure.self) { try stream.finish() }
    }
}
