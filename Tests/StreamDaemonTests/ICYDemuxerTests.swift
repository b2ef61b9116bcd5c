import AudioStreamProtocol
import FixtureSupport
import Testing

/// `ICYDemuxer` on bodies built here from known audio and known blocks, as a SHOUTcast/Icecast server writes
/// them: `metaint` audio bytes, a length byte L, L × 16 bytes of block, `metaint` audio bytes, …
///
/// The builder below is the truth: it knows where every audio byte and every block went, so for any chunking,
/// and for any body cut short, the audio and the complete blocks to expect follow from the format alone.
@Suite struct ICYDemuxerTests {
    /// An ICY body and where its parts went.
    struct Body {
        struct Block: Equatable, CustomStringConvertible {
            /// The block's L × 16 bytes, padding included.
            let bytes: [UInt8]
            /// Audio bytes before it in the body.
            let audioBefore: Int
            /// Body index of its length byte, and the index just after its last byte.
            let lengthByteAt: Int
            let end: Int

            var description: String { "\(bytes.count)-byte block after \(audioBefore) audio bytes" }
        }

        let metaint: Int
        let audio: [UInt8]
        let bytes: [UInt8]
        /// Every block with L > 0, in order.
        let blocks: [Block]
        /// Body index of each audio byte.
        let audioPositions: [Int]

        /// Interleaves `audio` with a length byte after every full `metaint` audio bytes (also after the last
        /// audio byte when the audio is a whole number of intervals) and the block `blocks[n]` after the n-th
        /// (from 1); a missing or empty entry is L = 0.
        init(audio: [UInt8], metaint: Int, blocks given: [Int: [UInt8]]) {
            precondition(given.keys.allSatisfy { (1...audio.count / metaint).contains($0) })
            self.metaint = metaint
            self.audio = audio
            var bytes: [UInt8] = []
            var blocks: [Block] = []
            var positions: [Int] = []
            var written = 0
            var number = 0
            while written < audio.count {
                let run = min(metaint, audio.count - written)
                for byte in audio[written..<written + run] {
                    positions.append(bytes.count)
                    bytes.append(byte)
                }
                written += run
                guard run == metaint else { break }
                number += 1
                let block = given[number] ?? []
                precondition(block.count % 16 == 0 && block.count <= 255 * 16)
                let lengthByteAt = bytes.count
                bytes.append(UInt8(block.count / 16))
                bytes += block
                if !block.isEmpty {
                    blocks.append(Block(bytes: block, audioBefore: written, lengthByteAt: lengthByteAt,
                                        end: bytes.count))
                }
            }
            self.bytes = bytes
            self.blocks = blocks
            audioPositions = positions
        }

        /// What the demuxer must hand on from the first `count` bytes of the body.
        func expected(upTo count: Int) -> Split {
            // Audio positions grow, so the audio before the cut is a prefix: find its length by bisection.
            var low = 0
            var high = audioPositions.count
            while low < high {
                let middle = (low + high) / 2
                if audioPositions[middle] < count { low = middle + 1 } else { high = middle }
            }
            return Split(audio: Array(audio[..<low]), blocks: blocks.filter { $0.end <= count }
                .map { Split.Block(bytes: $0.bytes, audioBefore: $0.audioBefore) })
        }
    }

    /// What the demuxer handed on.
    struct Split: Equatable {
        struct Block: Equatable, CustomStringConvertible {
            let bytes: [UInt8]
            let audioBefore: Int
            var description: String { "\(bytes.count)-byte block after \(audioBefore) audio bytes" }
        }

        var audio: [UInt8] = []
        var blocks: [Block] = []
    }

    enum Chunking: CustomStringConvertible {
        case whole
        case fixed(Int)
        /// Sizes 1…`largest` from a seeded generator.
        case random(seed: UInt64, largest: Int)
        /// Chunks ending at these body indexes (then one chunk with the rest).
        case cuts([Int])

        var description: String {
            switch self {
            case .whole: "whole"
            case .fixed(let size): "\(size)-byte chunks"
            case .random(let seed, let largest): "random chunks of 1…\(largest) (seed \(seed))"
            case .cuts(let cuts): "cut at \(cuts)"
            }
        }

        func ranges(of count: Int) -> [Range<Int>] {
            var ranges: [Range<Int>] = []
            var generator = TestRandom(seed: { if case .random(let seed, _) = self { seed } else { 0 } }())
            var ends: [Int] = { if case .cuts(let cuts) = self { cuts + [count] } else { [] } }()
            var start = 0
            while start < count {
                let end: Int = switch self {
                case .whole: count
                case .fixed(let size): min(count, start + size)
                case .random(_, let largest): min(count, start + Int(generator.next() % UInt64(largest)) + 1)
                case .cuts: ends.removeFirst()
                }
                precondition(end > start)
                ranges.append(start..<end)
                start = end
            }
            return ranges
        }
    }

    /// Feeds `bytes` to a new demuxer in the chunks given, recording the audio and, at each block, the audio
    /// handed on before it.
    static func split(_ bytes: [UInt8], metaint: Int, _ chunking: Chunking) -> Split {
        var demuxer = ICYDemuxer(metaint: metaint)
        var split = Split()
        var audioOutsideChunk = 0
        for range in chunking.ranges(of: bytes.count) {
            bytes[range].withUnsafeBytes { chunk in
                demuxer.split(chunk) { audio in
                    // Audio is a slice of the chunk, never a copy.
                    if let base = audio.baseAddress, let start = chunk.baseAddress,
                       base < start || base + audio.count > start + chunk.count {
                        audioOutsideChunk += 1
                    }
                    split.audio += audio
                } metadata: { block in
                    split.blocks.append(Split.Block(bytes: Array(block), audioBefore: split.audio.count))
                }
            }
        }
        #expect(audioOutsideChunk == 0, "audio handed on from outside the chunk (\(chunking))")
        return split
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = TestRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// Block n (from 1) has `lengths[n - 1]` 16-byte units: empty blocks, single units, runs of consecutive
    /// blocks and two maximum ones.
    static let lengths = [1, 0, 2, 255, 0, 0, 3, 1, 1, 16, 0, 255, 5, 0, 0, 1, 2, 0, 4, 1]

    /// `lengths.count` intervals of audio and half an interval more (none for metaint 1, so that body ends with
    /// a block).
    static func body(metaint: Int) -> Body {
        let audio = randomBytes(metaint * lengths.count + metaint / 2, seed: UInt64(metaint))
        var blocks: [Int: [UInt8]] = [:]
        for (index, length) in lengths.enumerated() where length > 0 {
            blocks[index + 1] = randomBytes(length * 16, seed: UInt64(1000 + index))
        }
        return Body(audio: audio, metaint: metaint, blocks: blocks)
    }

    @Test(arguments: [1, 2, 16, 64, 16000])
    func everyChunkingGivesTheAudioAndTheBlocksInPlace(metaint: Int) {
        let body = Self.body(metaint: metaint)
        let expected = body.expected(upTo: body.bytes.count)
        #expect(expected.audio == body.audio)
        #expect(expected.blocks.count == Self.lengths.filter { $0 > 0 }.count)
        let chunkings: [Chunking] = [
            .whole, .fixed(1), .fixed(7), .fixed(metaint + 1),
            .random(seed: 1, largest: 32), .random(seed: 2, largest: 600), .random(seed: 3, largest: 9000),
            .random(seed: UInt64(metaint), largest: 2 * metaint + 4097),
        ]
        for chunking in chunkings {
            let split = Self.split(body.bytes, metaint: metaint, chunking)
            #expect(split.audio == body.audio, "audio, \(chunking)")
            #expect(split.blocks == expected.blocks, "blocks, \(chunking)")
        }
    }

    /// A literal body, written out by hand from the format: the builder and the demuxer must both agree with it.
    @Test func aHandWrittenBody() {
        let title = Array("StreamTitle='x';".utf8)  // exactly 16 bytes: L = 1
        let bytes: [UInt8] = [10, 11, 12, 0, 13, 14, 15, 1] + title + [16, 17, 18, 2] + title + title + [19, 20]
        let blocks = [3: title + title, 2: title]
        #expect(Body(audio: Array(10...20), metaint: 3, blocks: blocks).bytes == bytes)
        for chunking: Chunking in [.whole, .fixed(1), .fixed(5)] {
            let split = Self.split(bytes, metaint: 3, chunking)
            #expect(split.audio == Array(10...20))
            #expect(split.blocks == [.init(bytes: title, audioBefore: 6), .init(bytes: title + title, audioBefore: 9)])
        }
    }

    /// The length byte ends one chunk and the block spans three more, the last of which also holds audio.
    @Test(arguments: [1, 16, 64])
    func aBlockSplitAcrossChunksComesOutWhole(metaint: Int) throws {
        let body = Self.body(metaint: metaint)
        let expected = body.expected(upTo: body.bytes.count)
        for block in body.blocks where block.bytes.count >= 32 {
            let start = block.lengthByteAt + 1
            let third = block.bytes.count / 3
            let cuts = [start, start + third, start + 2 * third, block.end + 1].filter { $0 < body.bytes.count }
            let split = Self.split(body.bytes, metaint: metaint, .cuts(cuts))
            #expect(split.audio == body.audio, "\(block)")
            #expect(split.blocks == expected.blocks, "\(block)")
        }
        // Also one byte of block per chunk, with the length byte alone.
        let block = try #require(body.blocks.first { $0.bytes.count == 255 * 16 })
        let cuts = Array(block.lengthByteAt...block.end)
        let split = Self.split(body.bytes, metaint: metaint, .cuts(cuts))
        #expect(split.audio == body.audio)
        #expect(split.blocks == expected.blocks)
    }

    @Test func emptyBlocksGiveNoCallback() {
        let audio = Self.randomBytes(16 * 10, seed: 9)
        let body = Body(audio: audio, metaint: 16, blocks: [:])
        #expect(body.bytes.count == audio.count + 10, "ten length bytes of 0")
        for chunking: Chunking in [.whole, .fixed(1), .random(seed: 4, largest: 40)] {
            let split = Self.split(body.bytes, metaint: 16, chunking)
            #expect(split.audio == audio)
            #expect(split.blocks.isEmpty)
        }
    }

    @Test func theLargestBlockIs4080Bytes() {
        #expect(ICYDemuxer.maximumBlockSize == 4080)
        let audio = Self.randomBytes(3 * 64 + 5, seed: 17)
        let largest = Self.randomBytes(4080, seed: 18)
        let body = Body(audio: audio, metaint: 64, blocks: [1: largest, 2: largest.reversed(), 3: largest])
        #expect(body.bytes.count == audio.count + 3 * (1 + 4080))
        #expect(body.bytes[64] == 255)
        for chunking: Chunking in [.whole, .fixed(1), .fixed(4080), .fixed(4081), .random(seed: 5, largest: 5000)] {
            let split = Self.split(body.bytes, metaint: 64, chunking)
            #expect(split.audio == audio, "\(chunking)")
            #expect(split.blocks == [.init(bytes: largest, audioBefore: 64),
                                     .init(bytes: largest.reversed(), audioBefore: 128),
                                     .init(bytes: largest, audioBefore: 192)], "\(chunking)")
        }
    }

    /// A body cut short: in the middle of audio, just after a length byte, in the middle of a block and one byte
    /// before its end. The audio up to the cut comes out; a block cut short gives no callback.
    @Test(arguments: [1, 16, 64, 16000])
    func aBodyEndingMidAudioOrMidBlock(metaint: Int) {
        let body = Self.body(metaint: metaint)
        var cuts: [Int] = []
        for block in body.blocks {
            cuts += [block.lengthByteAt, block.lengthByteAt + 1, block.lengthByteAt + 1 + block.bytes.count / 2,
                     block.end - 1, block.end]
        }
        // In the middle of an audio run after a block, and in the short tail.
        if metaint > 1 {
            cuts += body.blocks.map { $0.end + metaint / 2 } + [body.bytes.count - 1]
        }
        for cut in cuts where cut > 0 && cut < body.bytes.count {
            let prefix = Array(body.bytes[..<cut])
            let expected = body.expected(upTo: cut)
            // (Byte by byte only for the small bodies: the large one is fed that way whole above.)
            let small: Chunking = metaint > 64 ? .fixed(97) : .fixed(1)
            for chunking in [.whole, small, .random(seed: UInt64(cut), largest: 300)] {
                let split = Self.split(prefix, metaint: metaint, chunking)
                #expect(split == expected, "cut at \(cut) of \(body.bytes.count), \(chunking)")
            }
        }
        // Ending one byte before the end of a block: everything but that block.
        let last = body.blocks[body.blocks.count - 1]
        let split = Self.split(Array(body.bytes[..<(last.end - 1)]), metaint: metaint, .whole)
        #expect(split.blocks.count == body.blocks.count - 1)
        #expect(split.audio.count == last.audioBefore)
    }
}
