import Foundation
import Testing
import FixtureSupport
@testable import AudioFileStream

/// The tag fixtures (Tests/Fixtures/make-tag-fixtures.py) read through `TagReader` at the recorded offsets and
/// through `AudioFileStream`, compared with what mutagen read from each tag (expected/tags-*.tags.json).
@Suite struct TagFixtureTests {
    static let fixtures = Fixtures.generated.filter { $0.name.hasPrefix("tags-") }

    @Test func everyTagFixtureIsThere() {
        #expect(Self.fixtures.count == 14)
    }

    @Test(arguments: fixtures)
    func tagsAtTheirOffsetsMatchMutagen(fixture: Fixtures.Fixture) throws {
        let bytes = fixture.bytes
        for expected in try ExpectedTag.all(of: fixture) {
            let tagBytes = Array(bytes[expected.offset...])
            let reader = try #require(detectTag(tagBytes), "a tag at \(expected.offset)")
            #expect(reader.remainingBytes == expected.claimedSize, "whole size of the tag at \(expected.offset)")
            let metadata = readTagInEveryChunking(
                Array(tagBytes.prefix(expected.size)), cutBytes: expected.claimedSize - expected.size)
            expected.check(metadata)
        }
    }

    @Test(arguments: fixtures, [Chunking.whole, .fixed(1), .random(seed: 17)])
    func theParserReportsEveryTagInStreamOrder(fixture: Fixtures.Fixture, chunking: Chunking) throws {
        let reported = try parse(fixture.bytes, chunking: chunking).events.tags
        let expected = try ExpectedTag.all(of: fixture)
        #expect(reported.map(\.offset) == expected.map { Int64($0.offset) })
        for (tag, expectation) in zip(reported, expected) {
            expectation.check(tag.metadata)
        }
    }

    @Test func aTagCutByADiscontinuityMatchesMutagen() throws {
        // The file ends inside its tag; here the stream goes on after a gap instead, with other audio.
        let fixture = Fixtures.named("tags-id3v24-cut.mp3")
        let audio = Fixtures.named("l3-noxing.mp3")
        let gap = fixture.bytes.count..<fixture.bytes.count + 100
        let bytes = fixture.bytes + [UInt8](repeating: 0, count: gap.count) + audio.bytes
        let expected = try #require(try ExpectedTag.all(of: fixture).first)
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 17)] {
            let (events, _) = try parse(bytes, chunking: chunking, skips: [gap])
            #expect(events.tags.map(\.offset) == [Int64(expected.offset)], "\(chunking)")
            expected.check(events.tags.first?.metadata)
            #expect(events.packets == fixture.expectedPackets + audio.expectedPackets.shifted(by: gap.upperBound),
                    "\(chunking)")
        }
    }
}

/// One tag as mutagen read it: its source, its frames or items, and EasyID3's normalised view.
private struct ExpectedTag {
    let offset: Int
    /// The tag's bytes in the file.
    let size: Int
    /// The tag's size as its header gives it: more than `size` when the file ends inside the tag.
    let claimedSize: Int
    let source: String
    let raw: [RawTagField]
    let tags: NormalizedTags

    static func all(of fixture: Fixtures.Fixture) throws -> [ExpectedTag] {
        let url = fixture.expectedStem.appendingPathExtension("tags.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tags = try #require(json["tags"] as? [[String: Any]])
        return tags.map(ExpectedTag.init)
    }

    init(_ json: [String: Any]) {
        offset = json["offset"] as! Int
        size = json["size"] as! Int
        claimedSize = json["claimedSize"] as? Int ?? size
        source = json["source"] as! String
        if let items = json["items"] as? [[String: Any]] {
            raw = items.map(Self.apeField)
            tags = Self.apeTags(raw)
        } else {
            let frames = json["frames"] as! [[String: Any]]
            raw = frames.map(source.hasPrefix("id3v1") ? Self.id3v1Field : Self.id3v2Field)
            tags = Self.easyTags(json["easy"] as! [String: [String]], raw: raw)
        }
    }

    func check(_ metadata: Metadata?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(metadata?.source.rawValue == source, "tag at \(offset)", sourceLocation: sourceLocation)
        #expect(metadata?.raw == raw, "tag at \(offset)", sourceLocation: sourceLocation)
        #expect(metadata?.tags == tags, "tag at \(offset)", sourceLocation: sourceLocation)
    }

    // MARK: Raw fields

    private static func id3v2Field(_ frame: [String: Any]) -> RawTagField {
        let id = frame["id"] as! String
        let value: RawTagValue
        if let mime = frame["mime"] as? String {
            // ID3v2.2 PIC stores an image format, which the reader turns into a MIME type.
            let mimeType = id == "PIC" ? ["PNG": "image/png", "JPG": "image/jpeg"][mime]! : mime
            value = .picture(Artwork(
                mimeType: mimeType, pictureType: UInt8(frame["type"] as! Int), description: frame["desc"] as! String,
                size: frame["size"] as! Int, data: bytes(hex: frame["data"] as! String)))
        } else if let language = frame["lang"] as? String {
            // The fixtures hold one comment text each; mutagen lists it.
            value = .comment(language: language, description: frame["desc"] as! String,
                             text: (frame["text"] as! [String])[0])
        } else if let description = frame["desc"] as? String, let url = frame["url"] as? String {
            value = .userURL(description: description, url: url)
        } else if let description = frame["desc"] as? String {
            value = .userText(description: description, values: frame["text"] as! [String])
        } else if let url = frame["url"] as? String {
            value = .url(url)
        } else if let text = frame["text"] as? [String] {
            value = .text(text)
        } else {
            value = .binary(size: frame["size"] as! Int)
        }
        return RawTagField(key: id, value: value)
    }

    /// mutagen reads ID3v1 into ID3v2 frames; the reader keeps the ID3v1 field names.
    private static func id3v1Field(_ frame: [String: Any]) -> RawTagField {
        let names = ["TIT2": "Title", "TPE1": "Artist", "TALB": "Album", "TDRC": "Year", "COMM": "Comment",
                     "TRCK": "Track", "TCON": "Genre"]
        let id = frame["id"] as! String
        return RawTagField(key: names[id]!, value: .text([(frame["text"] as! [String])[0]]))
    }

    private static func apeField(_ item: [String: Any]) -> RawTagField {
        let key = item["key"] as! String
        let value: RawTagValue
        switch item["kind"] as! String {
        case "text":
            value = .text(item["values"] as! [String])
        case "external":
            value = .url(item["url"] as! String)
        default:
            if let fileName = item["filename"] as? String {
                value = .picture(Artwork(
                    mimeType: item["mime"] as! String, pictureType: apePictureTypes[key]!, description: fileName,
                    size: item["picture_size"] as! Int, data: bytes(hex: item["data"] as! String)))
            } else {
                value = .binary(size: item["size"] as! Int)
            }
        }
        return RawTagField(key: key, value: value)
    }

    /// The APEv2 cover art keys the fixtures use, with their ID3v2 picture types.
    private static let apePictureTypes: [String: UInt8] = ["Cover Art (Front)": 3, "Cover Art (Back)": 4]

    // MARK: Common keys

    /// EasyID3's view, plus what it does not show: the comment (the one without a description, else the first
    /// that is not iTunes' own) and the artwork (the front cover, else the first picture).
    private static func easyTags(_ easy: [String: [String]], raw: [RawTagField]) -> NormalizedTags {
        var tags = NormalizedTags()
        let joined = { (key: String) in easy[key]?.joined(separator: "; ") }
        tags.title = joined("title")
        tags.artist = joined("artist")
        tags.album = joined("album")
        tags.albumArtist = joined("albumartist")
        tags.year = joined("date")
        tags.genre = joined("genre")
        tags.composer = joined("composer")
        tags.grouping = joined("grouping")
        tags.bpm = easy["bpm"].flatMap { Int($0[0]) }
        (tags.trackNumber, tags.trackCount) = position(easy["tracknumber"]?[0])
        (tags.discNumber, tags.discCount) = position(easy["discnumber"]?[0])
        tags.comments = preferredComment(raw)
        tags.artwork = artwork(raw)
        return tags
    }

    /// The APEv2 item keys of the APEv2 specification's list of standard keys.
    private static func apeTags(_ raw: [RawTagField]) -> NormalizedTags {
        let text = { (key: String) -> String? in
            raw.first { $0.key == key }.flatMap { field in
                if case .text(let values) = field.value { values.joined(separator: "; ") } else { nil }
            }
        }
        var tags = NormalizedTags()
        tags.title = text("Title")
        tags.artist = text("Artist")
        tags.album = text("Album")
        tags.albumArtist = text("Album Artist")
        tags.year = text("Year")
        tags.genre = text("Genre")
        tags.composer = text("Composer")
        tags.comments = text("Comment")
        tags.bpm = text("BPM").flatMap { Int($0) }
        (tags.trackNumber, tags.trackCount) = position(text("Track"))
        (tags.discNumber, tags.discCount) = position(text("Disc"))
        tags.artwork = artwork(raw)
        return tags
    }

    /// `N` or `N/M` (ID3v2.4 §4.2.1 TRCK, TPOS; APEv2 Track).
    private static func position(_ text: String?) -> (Int?, Int?) {
        guard let parts = text?.split(separator: "/") else { return (nil, nil) }
        return (Int(parts[0]), parts.count > 1 ? Int(parts[1]) : nil)
    }

    private static func preferredComment(_ raw: [RawTagField]) -> String? {
        let comments = raw.compactMap { field -> (String, String)? in
            switch field.value {
            case .comment(_, let description, let text) where !description.hasPrefix("iTun"): (description, text)
            case .text(let values) where field.key == "Comment": ("", values[0])
            default: nil
            }
        }
        return (comments.first { $0.0.isEmpty } ?? comments.first)?.1
    }

    private static func artwork(_ raw: [RawTagField]) -> Artwork? {
        let pictures = raw.compactMap { field -> Artwork? in
            if case .picture(let artwork) = field.value { artwork } else { nil }
        }
        return pictures.first { $0.pictureType == 3 } ?? pictures.first
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)!
        }
    }
}
