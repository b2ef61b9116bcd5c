import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// Vorbis comment blocks written from the common keys read back, with mutagen and with our parser, as what was
/// set: text beyond Latin-1, numbers, and artwork as a METADATA_BLOCK_PICTURE.
@Suite struct VorbisCommentWriterTests {
    static let artwork = Artwork(mimeType: "image/png", pictureType: 3, description: "Überblick ✓", size: 5,
                                 data: [0x89, 0x50, 0x4E, 0x47, 0x00])

    static var tags: NormalizedTags {
        var tags = NormalizedTags()
        tags.title = "Träume — 夜の歌 🎵"
        tags.artist = "Сергей Прокофьев"
        tags.album = "Radio Ελλάδα"
        tags.albumArtist = "Various"
        tags.year = "2026-11-27T13:00:00"
        tags.trackNumber = 3
        tags.trackCount = 12
        tags.discNumber = 1
        tags.discCount = 2
        tags.genre = "Jazz"
        tags.comments = "recorded live"
        tags.composer = "Duke Ellington"
        tags.bpm = 120
        tags.grouping = "Evening"
        tags.artwork = artwork
        return tags
    }

    /// A FLAC file of a fixture's STREAMINFO and our VORBIS_COMMENT block (no frames: tag readers need none).
    static func flacFile(commentBlock: [UInt8]) throws -> [UInt8] {
        let fixture = try Data(contentsOf: Fixtures.directory.appendingPathComponent("flac-44k-stereo.flac"))
        let streamInfo = [UInt8](fixture[8..<42])
        let length = commentBlock.count
        return Array("fLaC".utf8) + [0, 0, 0, 34] + streamInfo
            + [0x80 | 4, UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + commentBlock
    }

    @Test func mutagenReadsBackWhatWasSet() throws {
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tags.flac").path
        let block = VorbisCommentWriter.block(tags: Self.tags, vendor: "test vendor ✓")
        try Data(Self.flacFile(commentBlock: block)).write(to: URL(fileURLWithPath: path))

        let read = try OggCheckTools.mutagenComments(path)
        #expect(read.vendor == "test vendor ✓")
        #expect(read.fields == [
            ["TITLE", "Träume — 夜の歌 🎵"], ["ARTIST", "Сергей Прокофьев"], ["ALBUM", "Radio Ελλάδα"],
            ["ALBUMARTIST", "Various"], ["DATE", "2026-11-27T13:00:00"], ["TRACKNUMBER", "3"], ["TRACKTOTAL", "12"],
            ["DISCNUMBER", "1"], ["DISCTOTAL", "2"], ["GENRE", "Jazz"], ["COMMENT", "recorded live"],
            ["COMPOSER", "Duke Ellington"], ["BPM", "120"], ["GROUPING", "Evening"],
        ])
        #expect(read.pictures == [.init(mime: "image/png", type: 3, desc: "Überblick ✓", data: "89504e4700")])
    }

    @Test func ourParserReadsBackTheCommonKeys() throws {
        let block = VorbisCommentWriter.block(tags: Self.tags)
        var read: NormalizedTags?
        let stream = try AudioFileStream { event in
            if case .metadata(let event) = event { read = event.metadata.tags }
        }
        try feed(Self.flacFile(commentBlock: block), to: stream)
        #expect(read == Self.tags)
    }

    /// Raw fields, as the daemon's mounts relay them: every text value in order, pictures and binary left out.
    @Test func rawFieldsKeepTheirKeysAndOrder() throws {
        let fields = [
            RawTagField(key: "ARTIST", value: .text(["Ada", "Grace"])), RawTagField(key: "title", value: .text(["ß"])),
            RawTagField(key: "METADATA_BLOCK_PICTURE", value: .picture(Self.artwork)),
            RawTagField(key: "BLOB", value: .binary(size: 9)),
        ]
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("raw.flac").path
        try Data(Self.flacFile(commentBlock: VorbisCommentWriter.block(fields: fields))).write(to: URL(fileURLWithPath: path))
        let read = try OggCheckTools.mutagenComments(path)
        #expect(read.vendor == VorbisCommentWriter.vendor)
        #expect(read.fields == [["ARTIST", "Ada"], ["ARTIST", "Grace"], ["TITLE", "ß"]])
        #expect(read.pictures.isEmpty)
    }
}
