import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// Vorbis comment blocks and FLAC PICTURE blocks, read from the tagged FLAC fixtures and compared with what
/// mutagen read from the same files (expected/NAME.tags.json); and every malformed block refused.
@Suite struct VorbisCommentTests {
    static let tagged = Fixtures.flac.filter { $0.recordedTags != nil }

    @Test func everyTaggedFixtureIsThere() {
        #expect(Self.tagged.map(\.name) == ["flac-tags-picture.flac", "flac-tags-totals.flac"])
    }

    /// The bodies of the metadata blocks of `type` in a native FLAC file (RFC 9639 §8.1), found by walking the
    /// block headers here rather than with the parser.
    static func blocks(ofType type: UInt8, in bytes: [UInt8]) -> [[UInt8]] {
        var position = 4
        var found: [[UInt8]] = []
        while position + 4 <= bytes.count {
            let header = bytes[position]
            let length = Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if header & 0x7F == type { found.append(Array(bytes[position + 4..<position + 4 + length])) }
            position += 4 + length
            if header & 0x80 != 0 { break }
        }
        return found
    }

    static func comments(_ block: [UInt8], limits: MetadataLimits = MetadataLimits()) -> Metadata? {
        block.withUnsafeBytes { VorbisComment.metadata($0, limits: limits) }
    }

    /// The raw fields are mutagen's comments, key as written, in order, repeated keys apart; the one holding a
    /// base64 PICTURE block is the picture the fixture script put there.
    @Test(arguments: tagged)
    func rawFieldsAreMutagens(fixture: Fixtures.Fixture) throws {
        let recorded = try #require(fixture.recordedTags)
        let block = try #require(Self.blocks(ofType: 4, in: fixture.bytes).first)
        let metadata = try #require(Self.comments(block))
        #expect(metadata.source == .vorbisComment)
        let comments = recorded["comments"] as! [[String]]
        #expect(metadata.raw.count == comments.count)
        for (field, comment) in zip(metadata.raw, comments) {
            #expect(field.key == comment[0])
            if comment[0] == VorbisComment.pictureKey {
                guard case .picture(let artwork) = field.value else {
                    Issue.record("\(field.key) is not a picture")
                    continue
                }
                try Self.expect(artwork, equals: recorded["embeddedPicture"] as! [String: Any])
            } else {
                #expect(field.value == .text([comment[1]]), "\(comment[0])")
            }
        }
    }

    @Test func commonKeysOfTheFullSet() throws {
        let fixture = try #require(Self.tagged.first { $0.name == "flac-tags-picture.flac" })
        let tags = try #require(Self.comments(Self.blocks(ofType: 4, in: fixture.bytes)[0])).tags
        let values = Self.values(of: fixture)
        #expect(tags.title == values["TITLE"]?[0])
        #expect(tags.artist == values["ARTIST"]?[0])
        #expect(tags.album == values["ALBUM"]?[0])
        #expect(tags.albumArtist == values["ALBUMARTIST"]?[0])
        #expect(tags.year == values["DATE"]?[0])
        #expect(values["TRACKNUMBER"] == ["3/12"])
        #expect(tags.trackNumber == 3 && tags.trackCount == 12)
        #expect(values["DISCNUMBER"] == ["1"] && values["DISCTOTAL"] == ["2"])
        #expect(tags.discNumber == 1 && tags.discCount == 2)
        #expect(tags.genre == values["GENRE"]?[0])
        #expect(tags.composer == values["COMPOSER"]?[0])
        #expect(tags.comments == values["DESCRIPTION"]?[0])
        #expect(values["BPM"] == ["128"] && tags.bpm == 128)
        #expect(tags.grouping == values["GROUPING"]?[0])
        #expect(tags.artwork?.pictureType == 4)
    }

    @Test func countsInKeysOfTheirOwnAndOtherSpellings() throws {
        let fixture = try #require(Self.tagged.first { $0.name == "flac-tags-totals.flac" })
        let tags = try #require(Self.comments(Self.blocks(ofType: 4, in: fixture.bytes)[0])).tags
        let values = Self.values(of: fixture)
        #expect(values["TRACKNUMBER"] == ["5"] && values["TRACKTOTAL"] == ["9"])
        #expect(tags.trackNumber == 5 && tags.trackCount == 9)
        #expect(values["DISCNUMBER"] == ["2"] && values["TOTALDISCS"] == ["3"])
        #expect(tags.discNumber == 2 && tags.discCount == 3)
        // Keys match whatever their case.
        #expect(tags.title == values["title"]?[0])
        #expect(tags.albumArtist == values["ALBUM ARTIST"]?[0])
        #expect(tags.comments == values["COMMENT"]?[0])
    }

    /// A count given in its own key is not undone by a number without one, in either order.
    @Test func aNumberAloneKeepsACountGivenBefore() {
        let fields = [RawTagField(key: "TRACKTOTAL", value: .text(["9"])),
                      RawTagField(key: "TRACKNUMBER", value: .text(["5"]))]
        let tags = MetadataNormalizer.tags(from: fields)
        #expect(tags.trackNumber == 5 && tags.trackCount == 9)
    }

    @Test func theFLACPictureBlockIsMutagens() throws {
        let fixture = try #require(Self.tagged.first { $0.name == "flac-tags-picture.flac" })
        let pictures = try #require(fixture.recordedTags?["pictures"] as? [[String: Any]])
        let blocks = Self.blocks(ofType: 6, in: fixture.bytes)
        #expect(blocks.count == pictures.count && pictures.count == 1)
        for (block, picture) in zip(blocks, pictures) {
            let artwork = try #require(block.withUnsafeBytes {
                FLACPicture.artwork($0, blockLength: $0.count, limits: MetadataLimits())
            })
            try Self.expect(artwork, equals: picture)
            // Too big for the limits: described, not kept.
            let small = MetadataLimits(maxArtworkBytes: artwork.size - 1)
            let described = try #require(block.withUnsafeBytes { FLACPicture.artwork($0, blockLength: $0.count, limits: small) })
            #expect(described.size == artwork.size && described.data.isEmpty && described.mimeType == artwork.mimeType)
            // Only a prefix was kept as the rest streamed past.
            let prefix = Array(block.prefix(60))
            let streamed = try #require(prefix.withUnsafeBytes {
                FLACPicture.artwork($0, blockLength: block.count, limits: MetadataLimits())
            })
            #expect(streamed.size == artwork.size && streamed.data.isEmpty && streamed.description == artwork.description)
        }
    }

    // MARK: - Malformed blocks and limits

    static func block(vendor: String = "v", fields: [String], count: Int? = nil) -> [UInt8] {
        var bytes = TagBytes.littleEndian(vendor.utf8.count) + Array(vendor.utf8)
        bytes += TagBytes.littleEndian(count ?? fields.count)
        for field in fields { bytes += TagBytes.littleEndian(field.utf8.count) + Array(field.utf8) }
        return bytes
    }

    @Test func lyingLengthsAndCountsAreRefused() {
        let good = Self.block(fields: ["TITLE=x", "ARTIST=y"])
        #expect(Self.comments(good)?.raw.count == 2)
        // Every cut of the block ends inside a length or a string it announces.
        for cut in 0..<good.count { #expect(Self.comments(Array(good.prefix(cut))) == nil, "cut at \(cut)") }
        #expect(Self.comments(Self.block(fields: ["TITLE=x"], count: 0x7FFF_FFFF)) == nil)
        #expect(Self.comments(Self.block(fields: ["TITLE=x"], count: 0xFFFF_FFFF)) == nil)
        var vendorPastEnd = good
        vendorPastEnd[3] = 0x7F
        #expect(Self.comments(vendorPastEnd) == nil)
        var fieldPastEnd = good
        fieldPastEnd[9] = 0xFF
        #expect(Self.comments(fieldPastEnd) == nil)
    }

    @Test func fieldsWithoutAKeyAreLeftOutAndEmptyBlocksGiveNothing() {
        #expect(Self.comments(Self.block(fields: [])) == nil)
        #expect(Self.comments(Self.block(fields: ["no separator", "=no key"])) == nil)
        let metadata = Self.comments(Self.block(fields: ["no separator", "Key=a=b", "EMPTY="]))
        #expect(metadata?.raw == [RawTagField(key: "Key", value: .text(["a=b"])),
                                  RawTagField(key: "EMPTY", value: .text([""]))])
    }

    @Test func limitsBoundWhatIsKept() throws {
        let long = String(repeating: "x", count: 100)
        let limits = MetadataLimits(maxArtworkBytes: 10, maxFieldBytes: 50, maxTagBytes: 1 << 20)
        let metadata = try #require(Self.comments(Self.block(fields: ["TITLE=\(long)", "ARTIST=a"]), limits: limits))
        #expect(metadata.raw == [RawTagField(key: "TITLE", value: .binary(size: 100)),
                                 RawTagField(key: "ARTIST", value: .text(["a"]))])
        // The whole tag's budget: the second field no longer fits.
        let tight = MetadataLimits(maxTagBytes: KeptFields.overhead + 10)
        let kept = try #require(Self.comments(Self.block(fields: ["A=1", "B=2"]), limits: tight))
        #expect(kept.raw.map(\.key) == ["A"])
    }

    @Test func aPictureThatIsNotBase64IsKeptBySize() throws {
        let metadata = try #require(Self.comments(Self.block(fields: ["METADATA_BLOCK_PICTURE=!!!!"])))
        #expect(metadata.raw == [RawTagField(key: "METADATA_BLOCK_PICTURE", value: .binary(size: 4))])
    }

    @Test func base64FollowsRFC4648() {
        func decode(_ text: String) -> [UInt8]? { Array(text.utf8).withUnsafeBytes { Base64.decode($0) } }
        // RFC 4648 §10 test vectors.
        let vectors = ["": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob", "Zm9vYmE=": "fooba",
                       "Zm9vYmFy": "foobar"]
        for (encoded, decoded) in vectors { #expect(decode(encoded) == Array(decoded.utf8), "\(encoded)") }
        for bad in ["Zg=", "Z===", "Zg=a", "Zm9v\n", "Zm*v"] { #expect(decode(bad) == nil, "\(bad)") }
    }

    /// mutagen's values under each key, in order.
    static func values(of fixture: Fixtures.Fixture) -> [String: [String]] {
        let comments = fixture.recordedTags?["comments"] as? [[String]] ?? []
        return Dictionary(comments.map { ($0[0], [$0[1]]) }, uniquingKeysWith: +)
    }

    static func expect(_ artwork: Artwork, equals recorded: [String: Any]) throws {
        #expect(Int(artwork.pictureType) == recorded["type"] as? Int)
        #expect(artwork.mimeType == recorded["mime"] as? String)
        #expect(artwork.description == recorded["description"] as? String)
        #expect(artwork.size == recorded["size"] as? Int && artwork.data.count == artwork.size)
        #expect(try md5(artwork.data) == recorded["md5"] as? String)
    }
}
