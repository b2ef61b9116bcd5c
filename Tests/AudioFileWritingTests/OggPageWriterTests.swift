@testable import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// Pages written by `OggPageWriter` are RFC 3533's: their CRCs match, their lacing holds each packet whole, and
/// the reader gets back every packet of a stream rewritten page by page.
@Suite struct OggPageWriterTests {
    /// The pages at the start of `bytes`, each with its body.
    static func pages(_ bytes: [UInt8]) -> [(page: OggPage, lacing: [Int])] {
        bytes.withUnsafeBytes { bytes in
            var pages: [(OggPage, [Int])] = []
            var position = 0
            while case .page(let page) = OggPage.find(in: bytes, at: position), position + page.length <= bytes.count {
                #expect(page.crcMatches(in: bytes, at: position))
                pages.append((page, (0..<page.segmentCount).map { page.lacing($0, in: bytes, at: position) }))
                position += page.length
            }
            #expect(position == bytes.count)
            return pages
        }
    }

    @Test func aPacketLongerThanAPageGoesOnInContinuedPages() {
        var writer = OggPageWriter(serial: 7)
        var bytes: [UInt8] = []
        // 255 × 255 + 300 bytes: a full page, then one continued page ending the packet.
        [UInt8](repeating: 9, count: 255 * 255 + 300).withUnsafeBytes {
            writer.append($0, granulePosition: 960, to: &bytes)
        }
        // A multiple of 255: a last segment of 0 bytes ends it.
        [UInt8](repeating: 1, count: 510).withUnsafeBytes { writer.append($0, granulePosition: 1920, to: &bytes) }
        let pages = Self.pages(bytes)
        #expect(pages.map(\.page.sequence) == [0, 1, 2])
        #expect(pages.map(\.page.serial) == [7, 7, 7])
        #expect(pages.map(\.page.flags) == [0x02, 0x01, 0])
        #expect(pages.map(\.page.granulePosition) == [-1, 960, 1920])
        #expect(pages[0].lacing == Array(repeating: 255, count: 255))
        #expect(pages[1].lacing == [255, 45])
        #expect(pages[2].lacing == [255, 255, 0])
    }

    @Test func packetsGatherOnAPageUntilItIsEnded() {
        var writer = OggPageWriter(serial: 3)
        var bytes: [UInt8] = []
        for index in 1...3 {
            [UInt8](repeating: UInt8(index), count: 100 * index).withUnsafeBytes {
                writer.add($0, granulePosition: Int64(index) * 960, to: &bytes)
            }
        }
        #expect(bytes.isEmpty)
        // The end trim replaces the last packet's position on the last page.
        writer.endPage(granulePosition: 2_000, isLast: true, to: &bytes)
        let pages = Self.pages(bytes)
        #expect(pages.map(\.page.flags) == [0x06])
        #expect(pages.map(\.page.granulePosition) == [2_000])
        #expect(pages[0].lacing == [100, 200, 255, 45])
    }

    @Test func aPageWhoseLacingValuesRunOutEndsItselfAndTheNextGoesOnWithThePacket() {
        var writer = OggPageWriter(serial: 3)
        var bytes: [UInt8] = []
        // Two lacing values a packet: the 128th packet's second value is the first of the second page.
        for index in 0..<200 {
            [UInt8](repeating: 5, count: 300).withUnsafeBytes {
                writer.add($0, granulePosition: Int64(index + 1), to: &bytes)
            }
        }
        writer.endPage(to: &bytes)
        let pages = Self.pages(bytes)
        #expect(pages.map(\.page.flags) == [0x02, 0x01])
        #expect(pages.map(\.page.granulePosition) == [127, 200])
        #expect(pages.map(\.lacing.count) == [255, 145])
        #expect(pages[1].lacing.prefix(3) == [45, 255, 45])
    }

    /// An Opus stream's packets written as pages of our own, behind its headers, read back packet for packet.
    @Test func theReaderGetsBackEveryPacketOfARewrittenStream() throws {
        let fixture = try #require(Fixtures.ogg.first { $0.name == "ogg-opus-64k-stereo.opus" })
        var cookie: [UInt8] = []
        var packets: [[UInt8]] = []
        let source = try AudioFileStream { event in
            switch event {
            case .property(.magicCookieData, .data(let bytes)): cookie = bytes
            case .packets(let batch):
                for description in batch.descriptions! {
                    let start = Int(description.startOffset)
                    packets.append(Array(batch.bytes[start..<start + Int(description.dataByteSize)]))
                }
            default: break
            }
        }
        try feed(fixture.bytes, to: source)
        #expect(packets.count == fixture.expectedPacketsWithFrames.count)

        var writer = OggPageWriter(serial: 1)
        var stream: [UInt8] = []
        cookie.withUnsafeBytes { writer.append($0, granulePosition: 0, to: &stream) }
        let tags = Array("OpusTags".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        tags.withUnsafeBytes { writer.append($0, granulePosition: 0, to: &stream) }
        for (index, packet) in packets.enumerated() {
            packet.withUnsafeBytes {
                writer.append($0, granulePosition: Int64(index + 1) * 960 + 312, isLast: index == packets.count - 1,
                              to: &stream)
            }
        }
        var reread: [[UInt8]] = []
        let reader = try AudioFileStream { event in
            guard case .packets(let batch) = event else { return }
            for description in batch.descriptions! {
                let start = Int(description.startOffset)
                reread.append(Array(batch.bytes[start..<start + Int(description.dataByteSize)]))
            }
        }
        try feed(stream, to: reader)
        #expect(reread == packets)
    }
}
