import FixtureSupport
import Testing
@testable import AudioFileStream

/// APEv2 tags laid out as the APEv2 specification describes them: a 32-byte header, items (value size, flags,
/// key, zero, value), a 32-byte footer, integers little-endian.
@Suite struct APEv2ReaderTests {
    private typealias Bytes = TagBytes

    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9, 8, 7]

    @Test func textExternalAndCoverArtItems() throws {
        let tag = Bytes.apeTag([
            Bytes.apeItem("Title", Array("Títle ✓".utf8)),
            Bytes.apeItem("Artist", Array("One\u{0}Two".utf8)),
            Bytes.apeItem("Related", kind: 2, Bytes.ascii("https://example.com/")),
            Bytes.apeItem("Cover Art (Back)", kind: 1, Bytes.ascii("back.png") + [0] + Self.png),
            Bytes.apeItem("Opaque", kind: 1, [1, 2, 3]),
            Bytes.apeItem("Empty", []),
        ])
        let metadata = try #require(readTagInEveryChunking(tag))
        #expect(metadata.source == "apev2")
        #expect(metadata.raw == [
            RawTagField(key: "Title", value: .text(["Títle ✓"])),
            RawTagField(key: "Artist", value: .text(["One", "Two"])),
            RawTagField(key: "Related", value: .url("https://example.com/")),
            RawTagField(key: "Cover Art (Back)", value: .picture(Artwork(
                mimeType: "image/png", pictureType: 4, description: "back.png", size: Self.png.count, data: Self.png))),
            RawTagField(key: "Opaque", value: .binary(size: 3)),
            RawTagField(key: "Empty", value: .text([])),
        ])
    }

    @Test func aTagWithAHeaderIsReadWholeFooterIncluded() throws {
        let tag = Bytes.apeTag([Bytes.apeItem("Title", Bytes.ascii("T"))])
        let reader = try #require(detectTag(tag + [0xFF, 0xFB]))
        #expect(reader.remainingBytes == tag.count)
    }

    @Test func aLoneFooterIsSkipped() throws {
        // The items before a footer have already gone past; only its 32 bytes remain.
        let footer = Bytes.apeHeader(size: 100, itemCount: 3, isHeader: false)
        let reading = try #require(readTag(footer))
        #expect(reading.reader.remainingBytes == 0)
        #expect(reading.metadata == nil)
        #expect(try #require(detectTag(footer)).remainingBytes == 32)
    }

    @Test func unknownVersionsAreNotTags() {
        let header = Bytes.apeHeader(size: 64, itemCount: 1, isHeader: true, version: 3000)
        guard case .notATag = header.withUnsafeBytes({ TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) }) else {
            Issue.record("version 3000 is not APEv1 or APEv2"); return
        }
        let partial = Array(header.prefix(20))
        guard case .needMoreData(32) = partial.withUnsafeBytes({ TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) })
        else { Issue.record("a partial header asks for 32 bytes"); return }
    }

    @Test func valuesBeyondTheLimitsAreReportedBySize() throws {
        let limits = MetadataLimits(maxArtworkBytes: 8, maxFieldBytes: 16, maxTagBytes: 1 << 20)
        let big = [UInt8](repeating: 0x42, count: 9)
        let tag = Bytes.apeTag([
            Bytes.apeItem("Title", [UInt8](repeating: 0x41, count: 17)),
            Bytes.apeItem("Cover Art (Front)", kind: 1, Bytes.ascii("a.jpg") + [0] + big),
        ])
        let metadata = try #require(readTagInEveryChunking(tag, limits: limits))
        #expect(metadata.raw == [
            RawTagField(key: "Title", value: .binary(size: 17)),
            RawTagField(key: "Cover Art (Front)", value: .picture(Artwork(
                mimeType: "", pictureType: 3, description: "a.jpg", size: 9, data: []))),
        ])
        #expect(metadata.tags.artwork?.size == 9)
    }

    @Test func anItemWithoutAKeyTerminatorEndsTheItems() throws {
        let unterminated = Bytes.littleEndian(1) + Bytes.littleEndian(0) + [UInt8](repeating: 0x4B, count: 300)
        let tag = Bytes.apeTag([Bytes.apeItem("Title", Bytes.ascii("kept")), unterminated])
        let metadata = try #require(readTagInEveryChunking(tag))
        #expect(metadata.raw == [RawTagField(key: "Title", value: .text(["kept"]))])
    }

    @Test func aTagCutShortKeepsTheItemsBeforeTheCut() throws {
        let kept = [Bytes.apeItem("Title", Bytes.ascii("kept")), Bytes.apeItem("Artist", Bytes.ascii("kept too"))]
        let tag = Bytes.apeTag(kept + [Bytes.apeItem("Album", Bytes.ascii("cut short"))])
        // The input ends 3 bytes into the Album item's value.
        let cut = APEv2Header.length + kept.joined().count + 8 + 6 + 3
        let metadata = try #require(readTagInEveryChunking(Array(tag.prefix(cut)), cutBytes: tag.count - cut))
        #expect(metadata.raw == [
            RawTagField(key: "Title", value: .text(["kept"])),
            RawTagField(key: "Artist", value: .text(["kept too"])),
        ])
    }

    @Test func garbageItemsNeverCrash() {
        for seed in UInt64(1)...300 {
            var random = TestRandom(seed: seed)
            let items = (0..<(random.next() % 5)).map { _ in
                (0..<(random.next() % 60)).map { _ in [0x00, 0x01, 0x41, 0xFF, 0x20][Int(random.next() % 5)] as UInt8 }
            }
            let tag = Bytes.apeTag(items)
            let whole = readTag(tag)
            #expect(whole?.reader.remainingBytes == 0, "seed \(seed)")
            #expect(readTag(tag, chunkSize: 1)?.metadata == whole?.metadata, "seed \(seed)")
        }
    }
}
