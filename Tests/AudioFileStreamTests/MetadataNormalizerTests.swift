import Testing
@testable import AudioFileStream

/// The mapping from every tag format's keys to the common keys.
@Suite struct MetadataNormalizerTests {
    private static func text(_ key: String, _ values: String...) -> RawTagField {
        RawTagField(key: key, value: .text(values))
    }

    private static func picture(_ key: String, type: UInt8, description: String) -> RawTagField {
        RawTagField(key: key, value: .picture(Artwork(
            mimeType: "image/png", pictureType: type, description: description, size: 1, data: [0])))
    }

    @Test func id3v24FramesMapToTheCommonKeys() {
        let tags = MetadataNormalizer.tags(from: [
            Self.text("TIT2", "Title"), Self.text("TPE1", "One", "Two"), Self.text("TALB", "Album"),
            Self.text("TPE2", "Band"), Self.text("TDRC", "2024-05-01"), Self.text("TRCK", "3/12"),
            Self.text("TPOS", "1/2"), Self.text("TCON", "(13)", "Synthpop"), Self.text("TCOM", "Composer"),
            Self.text("TBPM", "128"), Self.text("TIT1", "Grouping"),
            RawTagField(key: "COMM", value: .comment(language: "eng", description: "", text: "Words")),
        ])
        var expected = NormalizedTags()
        expected.title = "Title"
        expected.artist = "One; Two"
        expected.album = "Album"
        expected.albumArtist = "Band"
        expected.year = "2024-05-01"
        expected.trackNumber = 3
        expected.trackCount = 12
        expected.discNumber = 1
        expected.discCount = 2
        expected.genre = "Pop; Synthpop"
        expected.composer = "Composer"
        expected.bpm = 128
        expected.grouping = "Grouping"
        expected.comments = "Words"
        #expect(tags == expected)
    }

    @Test func id3v22AndID3v23KeysMapLikeID3v24() {
        let v22 = MetadataNormalizer.tags(from: [
            Self.text("TT2", "T"), Self.text("TP1", "A"), Self.text("TAL", "B"), Self.text("TP2", "C"),
            Self.text("TYE", "1999"), Self.text("TRK", "7"), Self.text("TPA", "2/3"), Self.text("TCO", "(RX)"),
            Self.text("TCM", "D"), Self.text("TBP", "90"), Self.text("TT1", "E"),
        ])
        #expect([v22.title, v22.artist, v22.album, v22.albumArtist, v22.year, v22.genre, v22.composer, v22.grouping]
            == ["T", "A", "B", "C", "1999", "Remix", "D", "E"])
        #expect([v22.trackNumber, v22.trackCount, v22.discNumber, v22.discCount, v22.bpm] == [7, nil, 2, 3, 90])
        let v23 = MetadataNormalizer.tags(from: [Self.text("TYER", "2003"), Self.text("GRP1", "iTunes grouping")])
        #expect(v23.year == "2003")
        #expect(v23.grouping == "iTunes grouping")
    }

    @Test func apeKeysMatchWhateverTheirCase() {
        let tags = MetadataNormalizer.tags(from: [
            Self.text("TITLE", "T"), Self.text("artist", "A"), Self.text("Album Artist", "AA"),
            Self.text("Track", "5/10"), Self.text("Genre", "Electronic"), Self.text("BPM", "120.6"),
        ])
        #expect(tags.title == "T")
        #expect(tags.artist == "A")
        #expect(tags.albumArtist == "AA")
        #expect(tags.trackNumber == 5 && tags.trackCount == 10)
        #expect(tags.genre == "Electronic")
        #expect(tags.bpm == 121)
    }

    @Test func theCommentWithoutDescriptionIsPreferredAndITunesCommentsAreSkipped() {
        let itunes = RawTagField(key: "COMM", value: .comment(language: "eng", description: "iTunNORM", text: " 0A"))
        let described = RawTagField(key: "COMM", value: .comment(language: "eng", description: "note", text: "Note"))
        let plain = RawTagField(key: "COMM", value: .comment(language: "eng", description: "", text: "Plain"))
        #expect(MetadataNormalizer.tags(from: [itunes, described, plain]).comments == "Plain")
        #expect(MetadataNormalizer.tags(from: [itunes, described]).comments == "Note")
        #expect(MetadataNormalizer.tags(from: [itunes]).comments == nil)
    }

    @Test func artworkIsTheFrontCoverElseTheFirstPicture() {
        let back = Self.picture("APIC", type: 4, description: "back")
        let front = Self.picture("APIC", type: 3, description: "front")
        let other = Self.picture("Cover Art (Other)", type: 0, description: "other")
        #expect(MetadataNormalizer.tags(from: [back, front]).artwork?.description == "front")
        #expect(MetadataNormalizer.tags(from: [other, back]).artwork?.description == "other")
        #expect(MetadataNormalizer.tags(from: [Self.text("TIT2", "no picture")]).artwork == nil)
    }

    @Test func theFirstUsableFieldOfAKeyWins() {
        let tags = MetadataNormalizer.tags(from: [
            Self.text("TIT2", ""), Self.text("TIT2", "Second"), Self.text("TRCK", "x"), Self.text("TRCK", "4/5"),
            Self.text("TXXX", "not mapped"),
        ])
        #expect(tags.title == "Second")
        #expect(tags.trackNumber == 4 && tags.trackCount == 5)
    }

    @Test func everyRowKeyIsUnique() {
        let keys = MetadataNormalizer.rows.flatMap(\.keys).map { $0.lowercased() }
        #expect(Set(keys).count == keys.count)
    }
}
