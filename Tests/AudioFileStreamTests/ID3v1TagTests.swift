import FixtureSupport
import Testing
@testable import AudioFileStream

/// ID3v1 and ID3v1.1 tags laid out as their definitions say: `TAG`, title, artist and album (30 bytes each),
/// year (4), comment (30, or 28 + zero + track in ID3v1.1), genre number.
@Suite struct ID3v1TagTests {
    private static func field(_ text: String, _ width: Int, padding: UInt8 = 0) -> [UInt8] {
        let bytes = TagBytes.latin1(text)
        return bytes + [UInt8](repeating: padding, count: width - bytes.count)
    }

    private static func tag(comment: [UInt8], genre: UInt8) -> [UInt8] {
        TagBytes.ascii("TAG") + field("Title padded with spaces", 30, padding: 0x20) + field("Ärtist", 30)
            + field("Album", 30) + field("1998", 4) + comment + [genre]
    }

    @Test func id3v1WithAThirtyByteComment() throws {
        let comment = TagBytes.latin1("A thirty-byte ID3v1.0 comment!")
        #expect(comment.count == 30)
        let metadata = try #require(readTagInEveryChunking(Self.tag(comment: comment, genre: 13)))
        #expect(metadata.source == "id3v1")
        #expect(metadata.raw == [
            RawTagField(key: "Title", value: .text(["Title padded with spaces"])),
            RawTagField(key: "Artist", value: .text(["Ärtist"])),
            RawTagField(key: "Album", value: .text(["Album"])),
            RawTagField(key: "Year", value: .text(["1998"])),
            RawTagField(key: "Comment", value: .text(["A thirty-byte ID3v1.0 comment!"])),
            RawTagField(key: "Genre", value: .text(["13"])),
        ])
        #expect(metadata.tags.genre == "Pop")
        #expect(metadata.tags.trackNumber == nil)
    }

    @Test func id3v11HoldsATrackNumber() throws {
        let comment = Self.field("Short comment", 28) + [0, 7]
        let metadata = try #require(readTagInEveryChunking(Self.tag(comment: comment, genre: 255)))
        #expect(metadata.source == .id3v1)
        #expect(metadata.raw.last == RawTagField(key: "Track", value: .text(["7"])), "genre 255 means none")
        #expect(metadata.tags.trackNumber == 7)
        #expect(metadata.tags.comments == "Short comment")
        #expect(metadata.tags.title == "Title padded with spaces")
        #expect(metadata.tags.year == "1998")
    }

    @Test func aZeroTrackByteIsNotID3v11() throws {
        let metadata = try #require(readTagInEveryChunking(Self.tag(comment: Self.field("c", 30), genre: 0)))
        #expect(metadata.source == "id3v1")
        #expect(metadata.tags.genre == "Blues")
    }

    @Test func anEmptyTagGivesNoMetadata() {
        let empty = TagBytes.ascii("TAG") + [UInt8](repeating: 0, count: 124) + [255]
        let reading = readTag(empty)
        #expect(reading?.reader.remainingBytes == 0)
        #expect(reading?.metadata == nil)
    }

    @Test func theTagIsExactly128Bytes() throws {
        let tag = Self.tag(comment: Self.field("c", 30), genre: 1)
        var reader = try #require(detectTag(tag))
        #expect(reader.remainingBytes == 128)
        let taken = (tag + [0xFF, 0xFB]).withUnsafeBytes { reader.consume($0) }
        #expect(taken == 128)
    }

    @Test func anEnhancedTagIsSkippedWhole() throws {
        // The enhanced block (`TAG+`, 227 bytes) precedes a plain ID3v1 tag, which is read on its own.
        let enhanced = TagBytes.ascii("TAG+") + [UInt8](repeating: 0x41, count: 223)
        let reading = try #require(readTag(enhanced + Self.tag(comment: Self.field("c", 30), genre: 1)))
        #expect(reading.reader.remainingBytes == 0)
        #expect(reading.metadata == nil)
        var reader = try #require(detectTag(enhanced + Self.tag(comment: Self.field("c", 30), genre: 1)))
        #expect(enhanced.withUnsafeBytes { reader.consume($0) } == 227)
    }

    @Test func aTitleStartingWithPlusAtTheEndIsAPlainTag() throws {
        // `TAG+` opens an enhanced block only when a plain tag follows it; here the input ends after 128 bytes.
        let audio = Fixtures.named("l3-noxing.mp3").bytes
        let tag = TagBytes.ascii("TAG") + Self.field("+44 Title", 30) + Self.field("Artist", 30) + Self.field("", 30)
            + Self.field("2001", 4) + Self.field("", 30) + [255]
        for chunking in [Chunking.whole, .fixed(1)] {
            let (events, _) = try parse(audio + tag, chunking: chunking)
            let titles = events.compactMap { if case .metadata(_, let tag) = $0 { tag.tags.title } else { nil } }
            #expect(titles == ["+44 Title"], "\(chunking)")
        }
    }

    @Test func threeLettersAreNotEnoughToTellTAGFromTAGPlus() {
        let detection = TagBytes.ascii("TAG").withUnsafeBytes { TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) }
        guard case .needMoreData(4) = detection else { Issue.record("`TAG` detected as \(detection)"); return }
    }
}
