import FixtureSupport
import Testing
@testable import AudioFileStream

/// ID3v2 tags crafted byte by byte from the ID3v2.2, 2.3 and 2.4 specs, read through `TagReader` whole and in
/// small chunks.
@Suite struct ID3v2ReaderTests {
    private typealias Bytes = TagBytes

    /// Frame data starting with a text encoding byte (ID3v2.4 §4.2).
    private static func latin1(_ text: String) -> [UInt8] { [0] + Bytes.latin1(text) }
    private static func utf8(_ text: String) -> [UInt8] { [3] + Bytes.ascii(text) }

    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    // MARK: Detection

    @Test func wholeSizeComesFromTheHeader() throws {
        let v23 = Bytes.id3v2(version: 3, body: [UInt8](repeating: 0, count: 300))
        #expect(try #require(detectTag(v23)).remainingBytes == 310)
        // ID3v2.4 §3.4: the footer is not counted in the size.
        let withFooter = Bytes.ascii("ID3") + [4, 0, 0x10] + Bytes.syncsafe(300)
        #expect(try #require(detectTag(withFooter)).remainingBytes == 320)
        let v22 = Bytes.ascii("ID3") + [2, 0, 0] + Bytes.syncsafe(0x1234)
        #expect(try #require(detectTag(v22)).remainingBytes == 10 + 0x1234)
    }

    @Test(arguments: [
        [0x49, 0x44, 0x33, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10],  // version 0xFF
        [0x49, 0x44, 0x33, 0x03, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x10],  // revision 0xFF
        [0x49, 0x44, 0x33, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10],  // unknown version
        [0x49, 0x44, 0x33, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10],  // ID3v2.1 never existed
        [0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x80, 0x10],  // size byte with its top bit set
        [0x49, 0x44, 0x34, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10],  // `ID4`
    ] as [[UInt8]])
    func implausibleHeadersAreNotTags(header: [UInt8]) {
        let detection = header.withUnsafeBytes { TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) }
        guard case .notATag = detection else { Issue.record("\(header) detected as \(detection)"); return }
    }

    @Test func aPartialHeaderAsksForTheWholeHeader() {
        for length in 0..<10 {
            let prefix = Array((Bytes.ascii("ID3") + [3, 0, 0, 0, 0, 1, 0]).prefix(length))
            let detection = prefix.withUnsafeBytes { TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) }
            guard case .needMoreData(let needed) = detection else {
                Issue.record("\(length) bytes detected as \(detection)"); continue
            }
            // Nothing but the ID3v2 header can start with `I`; with no bytes, `TAG` is decided soonest.
            #expect(needed == (length == 0 ? 4 : 10), "\(length) bytes")
        }
        let other = Bytes.ascii("IDX")
        guard case .notATag = other.withUnsafeBytes({ TagReader.detect($0, limits: MetadataLimits(), isEndOfInput: false) }) else {
            Issue.record("`IDX` is not the start of a tag"); return
        }
    }

    // MARK: Text

    @Test func textFramesInEveryEncoding() {
        let body = Bytes.frame("TIT2", Self.latin1("Café ÿ"))
            + Bytes.frame("TPE1", [1] + Bytes.utf16("Ünïcödé ☃ 𝄞", bigEndian: false, byteOrderMark: true))
            + Bytes.frame("TALB", [1] + Bytes.utf16("Big ☃", bigEndian: true, byteOrderMark: true))
            + Bytes.frame("TCOM", [2] + Bytes.utf16("Sixteen BE ✓", bigEndian: true, byteOrderMark: false))
            + Bytes.frame("TIT1", [3] + Array("UTF-8 ✓ 𝄞".utf8))
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: body))
        #expect(metadata?.source == "id3v2.4")
        #expect(metadata?.raw == [
            RawTagField(key: "TIT2", value: .text(["Café ÿ"])),
            RawTagField(key: "TPE1", value: .text(["Ünïcödé ☃ 𝄞"])),
            RawTagField(key: "TALB", value: .text(["Big ☃"])),
            RawTagField(key: "TCOM", value: .text(["Sixteen BE ✓"])),
            RawTagField(key: "TIT1", value: .text(["UTF-8 ✓ 𝄞"])),
        ])
    }

    @Test func multipleValuesAreSeparatedByTerminators() {
        // ID3v2.4 §4.2: values separated by a terminator of the encoding; each UTF-16 value has its own BOM.
        let utf16Values = [1] + Bytes.utf16("One", bigEndian: false, byteOrderMark: true) + [0, 0]
            + Bytes.utf16("Two", bigEndian: true, byteOrderMark: true) + [0, 0]
        let body = Bytes.frame("TPE1", Self.latin1("A\u{0}B\u{0}")) + Bytes.frame("TPE2", utf16Values)
            + Bytes.frame("TXXX", Self.utf8("MOOD\u{0}calm\u{0}bright"))
            + Bytes.frame("TCOM", Self.latin1("x\u{0}\u{0}y"))
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: body))
        #expect(metadata?.raw == [
            RawTagField(key: "TPE1", value: .text(["A", "B"])),
            RawTagField(key: "TPE2", value: .text(["One", "Two"])),
            RawTagField(key: "TXXX", value: .userText(description: "MOOD", values: ["calm", "bright"])),
            RawTagField(key: "TCOM", value: .text(["x", "", "y"])),
        ])
    }

    @Test func commentsLinksAndPicturesInID3v23() {
        let comment = [1] + Bytes.ascii("eng") + Bytes.utf16("desc", bigEndian: false, byteOrderMark: true) + [0, 0]
            + Bytes.utf16("Kommentar ✓", bigEndian: false, byteOrderMark: true)
        let picture = [0] + Bytes.ascii("image/png") + [0, 3] + Bytes.ascii("Front") + [0] + Self.png
        let body = Bytes.frame("COMM", version: 3, comment)
            + Bytes.frame("WOAR", version: 3, Bytes.ascii("https://example.com/a"))
            + Bytes.frame("WXXX", version: 3, Self.latin1("Shop\u{0}https://example.com/shop"))
            + Bytes.frame("APIC", version: 3, picture)
            + Bytes.frame("PRIV", version: 3, Bytes.ascii("owner") + [0] + [1, 2, 3, 4])
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 3, body: body))
        #expect(metadata?.source == "id3v2.3")
        #expect(metadata?.raw == [
            RawTagField(key: "COMM", value: .comment(language: "eng", description: "desc", text: "Kommentar ✓")),
            RawTagField(key: "WOAR", value: .url("https://example.com/a")),
            RawTagField(key: "WXXX", value: .userURL(description: "Shop", url: "https://example.com/shop")),
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/png", pictureType: 3, description: "Front", size: Self.png.count, data: Self.png))),
            RawTagField(key: "PRIV", value: .binary(size: 10)),
        ])
    }

    @Test func id3v22FramesHaveThreeLetterIDs() {
        // ID3v2.2 §4: 3-letter ids and 24-bit sizes; PIC has a 3-letter image format instead of a MIME type.
        let body = Bytes.frameV22("TT2", Self.latin1("Title"))
            + Bytes.frameV22("TP1", [1] + Bytes.utf16("Ärtist", bigEndian: false, byteOrderMark: true))
            + Bytes.frameV22("COM", Self.latin1("engd\u{0}comment"))
            + Bytes.frameV22("TXX", Self.latin1("Mood\u{0}calm"))
            + Bytes.frameV22("WAR", Bytes.ascii("https://example.com/"))
            + Bytes.frameV22("PIC", [0] + Bytes.ascii("JPG") + [4] + Bytes.ascii("back") + [0, 0xFF, 0xD8, 0xFF])
            + [UInt8](repeating: 0, count: 20)
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 2, body: body))
        #expect(metadata?.source == "id3v2.2")
        #expect(metadata?.raw == [
            RawTagField(key: "TT2", value: .text(["Title"])),
            RawTagField(key: "TP1", value: .text(["Ärtist"])),
            RawTagField(key: "COM", value: .comment(language: "eng", description: "d", text: "comment")),
            RawTagField(key: "TXX", value: .userText(description: "Mood", values: ["calm"])),
            RawTagField(key: "WAR", value: .url("https://example.com/")),
            RawTagField(key: "PIC", value: .picture(Artwork(
                mimeType: "image/jpeg", pictureType: 4, description: "back", size: 3, data: [0xFF, 0xD8, 0xFF]))),
        ])
        #expect(metadata?.tags.title == "Title")
    }

    @Test func aCompressedID3v22TagIsIgnored() {
        // ID3v2.2 §3.1: no compression scheme was defined, so a compressed tag is to be ignored.
        let tag = Bytes.id3v2(version: 2, flags: 0x40, body: Bytes.frameV22("TT2", Self.latin1("Title")))
        let reading = readTag(tag)
        #expect(reading?.reader.remainingBytes == 0)
        #expect(reading?.metadata == nil)
    }

    @Test func id3v22IDsPaddedWithAZeroAreReadAsTheFramesTheyBecame() {
        // Some taggers store ID3v2.3 frames under ID3v2.2 ids padded with a zero (`TT2\0`), in 10-byte headers;
        // mutagen reads each as the frame its id became (id3/_tags.py, read_frames) and drops one that became none
        // (CRM) or is no ID3v2.2 id, going on after it.
        let picture = [0] + Bytes.ascii("image/png") + [0, 3] + Bytes.ascii("Front") + [0] + Self.png
        let body = Bytes.frame("TT2\u{0}", version: 3, Self.latin1("Title"))
            + Bytes.frame("CRM\u{0}", version: 3, Bytes.ascii("owner") + [0, 1, 2])
            + Bytes.frame("XYZ\u{0}", version: 3, Self.latin1("no such ID3v2.2 frame"))
            + Bytes.frame("PIC\u{0}", version: 3, picture)
            + Bytes.frame("TPE1", version: 3, Self.latin1("Artist"))
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 3, body: body))
        #expect(metadata?.raw == [
            RawTagField(key: "TIT2", value: .text(["Title"])),
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/png", pictureType: 3, description: "Front", size: Self.png.count, data: Self.png))),
            RawTagField(key: "TPE1", value: .text(["Artist"])),
        ])
        #expect(metadata?.tags.title == "Title")
        let v24 = Bytes.id3v2(version: 4, body: Bytes.frame("TAL\u{0}", Self.latin1("Album")))
        #expect(readTagInEveryChunking(v24)?.raw == [RawTagField(key: "TALB", value: .text(["Album"]))])
    }

    @Test func sixByteID3v22FrameHeadersInAnID3v23TagGiveNothing() {
        // Read as 10-byte headers, `TT2` and its 24-bit size make the id `TT2\0` with a size taken from the data,
        // which runs past the tag: mutagen reads no frame either.
        let body = Bytes.frameV22("TT2", Self.latin1("Title")) + Bytes.frameV22("TP1", Self.latin1("Artist"))
        let reading = readTag(Bytes.id3v2(version: 3, body: body))
        #expect(reading?.reader.remainingBytes == 0)
        #expect(reading?.metadata == nil)
    }

    // MARK: Unsynchronisation

    /// Frame data full of what unsynchronisation protects: 0xFF before 0x00, before 0xE0 and more, and at the end.
    private static let syncLikeData: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0xFF, 0x00, 0x00, 0x12, 0xFF, 0xFF]

    @Test func tagUnsynchronisationIsUndoneInID3v23() {
        let picture = [0] + Bytes.ascii("image/jpeg") + [0, 3, 0] + Self.syncLikeData
        let frames = Bytes.frame("TIT2", version: 3, [1] + Bytes.utf16("ÿé", bigEndian: false, byteOrderMark: true))
            + Bytes.frame("APIC", version: 3, picture)
            + Bytes.frame("TPE1", version: 3, Self.latin1("ÿ"))
        let encoded = Bytes.unsynchronised(frames)
        #expect(encoded.count > frames.count, "the test data needs unsynchronising")
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 3, flags: 0x80, body: encoded))
        #expect(metadata?.raw == [
            RawTagField(key: "TIT2", value: .text(["ÿé"])),
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/jpeg", pictureType: 3, description: "", size: Self.syncLikeData.count,
                data: Self.syncLikeData))),
            RawTagField(key: "TPE1", value: .text(["ÿ"])),
        ])
    }

    @Test func frameUnsynchronisationAndDataLengthIndicatorInID3v24() {
        // ID3v2.4 §4.1.2: flags n (unsynchronised) and p (data length indicator: 4 syncsafe bytes before the data).
        let picture = [0] + Bytes.ascii("image/jpeg") + [0, 3, 0] + Self.syncLikeData
        let stored = Bytes.syncsafe(picture.count) + Bytes.unsynchronised(picture)
        let body = Bytes.frame("APIC", flags: [0, 0x03], stored) + Bytes.frame("TIT2", Self.latin1("after"))
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: body))
        #expect(metadata?.raw == [
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/jpeg", pictureType: 3, description: "", size: Self.syncLikeData.count,
                data: Self.syncLikeData))),
            RawTagField(key: "TIT2", value: .text(["after"])),
        ])
    }

    @Test func theTagUnsynchronisationFlagOfID3v24AppliesToEachFrame() {
        // ID3v2.4 §3.1: the tag flag means every frame is unsynchronised, flagged or not.
        let body = Bytes.frame("TIT2", Bytes.unsynchronised(Self.latin1("ÿá")))
            + Bytes.frame("TPE1", Bytes.unsynchronised(Self.latin1("ÿÿ")))
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, flags: 0x80, body: body))
        #expect(metadata?.raw == [
            RawTagField(key: "TIT2", value: .text(["ÿá"])),
            RawTagField(key: "TPE1", value: .text(["ÿÿ"])),
        ])
    }

    // MARK: Extended header, footer, frame flags

    @Test func theExtendedHeaderIsSkipped() {
        // ID3v2.3 §3.2: size (6 or 10, not counting itself), flags, padding size, optional CRC.
        let v23Extended: [UInt8] = [0, 0, 0, 10, 0x80, 0, 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF]
        let v23 = Bytes.id3v2(
            version: 3, flags: 0x40, body: v23Extended + Bytes.frame("TIT2", version: 3, Self.latin1("v2.3")))
        #expect(readTagInEveryChunking(v23)?.raw == [RawTagField(key: "TIT2", value: .text(["v2.3"]))])

        // ID3v2.4 §3.2: syncsafe size counting itself, number of flag bytes, flags, each set flag's data.
        let v24Extended = Bytes.syncsafe(12) + [1, 0x20, 5] + Bytes.syncsafe(0x1234_5678, width: 5)
        let v24 = Bytes.id3v2(version: 4, flags: 0x40, body: v24Extended + Bytes.frame("TIT2", Self.latin1("v2.4")))
        #expect(readTagInEveryChunking(v24)?.raw == [RawTagField(key: "TIT2", value: .text(["v2.4"]))])
    }

    @Test func aFooterIsPartOfTheTag() throws {
        let body = Bytes.frame("TIT2", Self.latin1("Footed"))
        let header = Bytes.id3v2(version: 4, flags: 0x10, body: body)
        let footer = Bytes.ascii("3DI") + [4, 0, 0x10] + Bytes.syncsafe(body.count)
        let audio: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]
        let tag = header + footer
        #expect(readTagInEveryChunking(tag)?.raw == [RawTagField(key: "TIT2", value: .text(["Footed"]))])

        var reader = try #require(detectTag(tag))
        let taken = (tag + audio).withUnsafeBytes { reader.consume($0) }
        #expect(taken == tag.count, "the audio after the footer is not the tag's")
        #expect(reader.remainingBytes == 0)
    }

    @Test func groupingIdentityBytesAreSkipped() {
        // ID3v2.3 §3.3.1 flag k and ID3v2.4 §4.1.2 flag h: one group id byte before the data.
        let v23Frame = Bytes.frame("TIT2", version: 3, flags: [0, 0x20], [7] + Self.latin1("G3"))
        let v23 = Bytes.id3v2(version: 3, body: v23Frame)
        #expect(readTagInEveryChunking(v23)?.raw == [RawTagField(key: "TIT2", value: .text(["G3"]))])
        let v24 = Bytes.id3v2(version: 4, body: Bytes.frame("TIT2", flags: [0, 0x40], [7] + Self.latin1("G4")))
        #expect(readTagInEveryChunking(v24)?.raw == [RawTagField(key: "TIT2", value: .text(["G4"]))])
    }

    @Test func compressedAndEncryptedFramesAreReportedBySize() {
        let deflated: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]
        // ID3v2.3: compression adds a 4-byte decompressed size, encryption a method byte.
        let v23 = Bytes.frame("TIT2", version: 3, flags: [0, 0x80], Bytes.bigEndian(20, width: 4) + deflated)
            + Bytes.frame("TPE1", version: 3, flags: [0, 0x40], [0x80] + deflated)
        #expect(readTagInEveryChunking(Bytes.id3v2(version: 3, body: v23))?.raw == [
            RawTagField(key: "TIT2", value: .binary(size: deflated.count)),
            RawTagField(key: "TPE1", value: .binary(size: deflated.count)),
        ])
        // ID3v2.4: compression comes with a data length indicator; encryption adds a method byte.
        let v24 = Bytes.frame("TIT2", flags: [0, 0x09], Bytes.syncsafe(20) + deflated)
            + Bytes.frame("TPE1", flags: [0, 0x04], [0x80] + deflated)
        #expect(readTagInEveryChunking(Bytes.id3v2(version: 4, body: v24))?.raw == [
            RawTagField(key: "TIT2", value: .binary(size: deflated.count)),
            RawTagField(key: "TPE1", value: .binary(size: deflated.count)),
        ])
    }

    @Test func id3v24FrameSizesWrittenAsPlainIntegersAreRead() {
        // iTunes wrote 32-bit sizes into ID3v2.4; 0x80 cannot be syncsafe, so it can only mean 128.
        let text = Self.latin1(String(repeating: "x", count: 127))
        let frame = Bytes.ascii("TIT2") + [0, 0, 0, 0x80, 0, 0] + text
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: frame))
        #expect(metadata?.raw == [RawTagField(key: "TIT2", value: .text([String(repeating: "x", count: 127)]))])
    }

    // MARK: Padding and damage

    @Test func framesEndAtPaddingOrAtAnInvalidFrameID() {
        let padded = Bytes.frame("TIT2", Self.latin1("one")) + [UInt8](repeating: 0, count: 50)
        #expect(readTagInEveryChunking(Bytes.id3v2(version: 4, body: padded))?.raw == [
            RawTagField(key: "TIT2", value: .text(["one"])),
        ])
        let damaged = Bytes.frame("TIT2", Self.latin1("one")) + Bytes.ascii("ti#2") + [0, 0, 0, 4, 0, 0]
            + Self.latin1("bad") + Bytes.frame("TPE1", Self.latin1("unreachable"))
        #expect(readTagInEveryChunking(Bytes.id3v2(version: 4, body: damaged))?.raw == [
            RawTagField(key: "TIT2", value: .text(["one"])),
        ])
    }

    @Test func emptyFramesAndFramesRunningPastTheTagAreDropped() {
        let body = Bytes.frame("TIT1", []) + Bytes.frame("TIT2", Self.latin1("kept"))
            + Bytes.ascii("TPE1") + Bytes.syncsafe(1000) + [0, 0] + Self.latin1("cut short")
        #expect(readTagInEveryChunking(Bytes.id3v2(version: 4, body: body))?.raw == [
            RawTagField(key: "TIT2", value: .text(["kept"])),
        ])
    }

    @Test func aTagCutShortKeepsTheFramesBeforeTheCut() {
        // The input ends (or breaks off) inside the tag: the whole frames are kept and the frame the cut falls
        // in, header or data, is dropped.
        let whole = Bytes.frame("TIT2", Self.latin1("kept")) + Bytes.frame("TPE1", Self.latin1("kept too"))
        let tag = Bytes.id3v2(version: 4, body: whole + Bytes.frame("TALB", Self.latin1("cut")) + [0, 0, 0, 0])
        let expected = [
            RawTagField(key: "TIT2", value: .text(["kept"])),
            RawTagField(key: "TPE1", value: .text(["kept too"])),
        ]
        let framesEnd = ID3v2Header.length + whole.count
        for cut in [framesEnd, framesEnd + 4, framesEnd + 12, tag.count - 5] {
            let metadata = readTagInEveryChunking(Array(tag[..<cut]), cutBytes: tag.count - cut)
            #expect(metadata?.raw == expected, "cut at \(cut)")
        }
    }

    @Test func aTagWithNothingReadableGivesNoMetadata() {
        let reading = readTag(Bytes.id3v2(version: 3, body: [UInt8](repeating: 0, count: 64)))
        #expect(reading?.reader.remainingBytes == 0)
        #expect(reading?.metadata == nil)
    }

    // MARK: Limits

    @Test func fieldsBeyondTheLimitsAreReportedBySize() {
        let limits = MetadataLimits(maxArtworkBytes: 16, maxFieldBytes: 32, maxTagBytes: 1 << 20)
        let fits = String(repeating: "a", count: 31)
        let tooLong = String(repeating: "b", count: 32)
        let pictureHeader = [0] + Bytes.ascii("image/png") + [0, 3, 0]
        let smallPicture = [UInt8](repeating: 0xAB, count: 16)
        let largePicture = [UInt8](repeating: 0xCD, count: 17)
        let body = Bytes.frame("TIT2", Self.latin1(fits)) + Bytes.frame("TPE1", Self.latin1(tooLong))
            + Bytes.frame("APIC", pictureHeader + smallPicture) + Bytes.frame("APIC", pictureHeader + largePicture)
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: body), limits: limits)
        #expect(metadata?.raw == [
            RawTagField(key: "TIT2", value: .text([fits])),
            RawTagField(key: "TPE1", value: .binary(size: 33)),
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/png", pictureType: 3, description: "", size: 16, data: smallPicture))),
            RawTagField(key: "APIC", value: .picture(Artwork(
                mimeType: "image/png", pictureType: 3, description: "", size: 17, data: []))),
        ])
    }

    @Test func aTagKeepsNoMoreThanMaxTagBytes() {
        // Each field costs its key, its text and a fixed overhead for its record: two fit in 200 bytes.
        let limits = MetadataLimits(maxArtworkBytes: 1 << 20, maxFieldBytes: 64, maxTagBytes: 200)
        let value = String(repeating: "v", count: 19)
        let body = (0..<4).flatMap { index in Bytes.frame("TXT\(index)", Self.latin1(value)) }
        let metadata = readTagInEveryChunking(Bytes.id3v2(version: 4, body: body), limits: limits)
        #expect(metadata?.raw == [
            RawTagField(key: "TXT0", value: .text([value])),
            RawTagField(key: "TXT1", value: .text([value])),
        ])
    }

    @Test func millionsOfTinyFramesStayWithinMaxTagBytes() throws {
        let limits = MetadataLimits(maxTagBytes: 64 << 10)
        // 100,000 PRIV frames of one byte each: 11 bytes apiece on the wire.
        let body = Array((0..<100_000).map { _ in Bytes.frame("PRIV", [0]) }.joined())
        let reading = try #require(readTag(Bytes.id3v2(version: 4, body: body), limits: limits))
        #expect(reading.reader.keptByteCount <= limits.maxTagBytes)
        #expect((reading.metadata?.raw.count ?? 0) < 1024)
    }

    /// Feeds a tag claiming the largest ID3v2 size (256 MB) in 64 KiB chunks and returns the reader at its end,
    /// and the most bytes it held at any point.
    private static func readHugeTag(body start: [UInt8], limits: MetadataLimits) throws -> (TagReader, mostKept: Int) {
        let header = Bytes.ascii("ID3") + [4, 0, 0] + Bytes.syncsafe((1 << 28) - 1)
        var reader = try #require(detectTag(header, limits: limits))
        var mostKept = 0
        _ = (header + start).withUnsafeBytes { reader.consume($0) }
        let zeros = [UInt8](repeating: 0, count: 64 << 10)
        while reader.remainingBytes > 0 {
            _ = zeros.withUnsafeBytes { reader.consume($0) }
            mostKept = max(mostKept, reader.keptByteCount)
        }
        return (reader, mostKept)
    }

    @Test func a256MBTagOfPaddingIsSkippedNotBuffered() throws {
        let (reader, mostKept) = try Self.readHugeTag(body: [], limits: MetadataLimits())
        #expect(reader.remainingBytes == 0)
        #expect(mostKept == 0)
        #expect(reader.finish() == nil)
    }

    @Test func a256MBPictureKeepsOnlyWhatTheLimitsAllow() throws {
        let limits = MetadataLimits(maxArtworkBytes: 1 << 20, maxFieldBytes: 1 << 10, maxTagBytes: 8 << 20)
        let frameSize = (1 << 28) - 1 - 10
        // The zeros that follow the frame header make encoding 0, an empty MIME type and its terminator, picture
        // type 0, an empty description and its terminator: 4 bytes. The rest is the picture's data.
        let frameHeader = Bytes.ascii("APIC") + Bytes.syncsafe(frameSize) + [0, 0]
        let (reader, mostKept) = try Self.readHugeTag(body: frameHeader, limits: limits)
        #expect(reader.remainingBytes == 0)
        #expect(mostKept > 0 && mostKept <= limits.maxArtworkBytes + limits.maxFieldBytes)
        #expect(reader.keptByteCount <= KeptFields.overhead + 4, "a picture too large to keep holds no data")
        #expect(reader.finish()?.raw == [RawTagField(key: "APIC", value: .picture(Artwork(
            mimeType: "", pictureType: 0, description: "", size: frameSize - 4, data: [])))])
    }

    // MARK: Garbage

    @Test func garbageAfterTheHeaderNeverCrashes() {
        let frameIDs = [
            "TIT2", "TXXX", "COMM", "APIC", "WXXX", "WOAR", "PRIV", "T\u{0}\u{0}\u{0}", "TPE1", "TT2\u{0}", "CRM\u{0}",
        ]
        for seed in UInt64(1)...300 {
            var random = TestRandom(seed: seed)
            let version = UInt8(2 + random.next() % 3)
            var body: [UInt8] = []
            for _ in 0..<(random.next() % 6) {
                let data = (0..<(random.next() % 40)).map { _ in
                    [0x00, 0xFF, 0x01, 0x03, 0xE0, 0x41][Int(random.next() % 6)] as UInt8
                }
                let id = frameIDs[Int(random.next() % UInt64(frameIDs.count))]
                let claimed = random.next() % 4 == 0 ? Int(random.next() % 200) : data.count
                let frameFlags = [UInt8(random.next() % 256), UInt8(random.next() % 256)]
                body += version == 2
                    ? Bytes.ascii(String(id.prefix(3))) + Bytes.bigEndian(claimed, width: 3) + data
                    : Bytes.ascii(id) + Bytes.syncsafe(claimed) + frameFlags + data
            }
            let flags = UInt8(random.next() % 256)
            let tag = Bytes.id3v2(version: version, flags: flags, body: body)
                + (flags & 0x10 != 0 ? [UInt8](repeating: 0, count: 10) : [])
            let whole = readTag(tag)
            #expect(whole?.reader.remainingBytes == 0, "seed \(seed)")
            #expect(readTag(tag, chunkSize: 1)?.metadata == whole?.metadata, "seed \(seed)")
            let cut = Array(tag.prefix(Int(random.next() % UInt64(tag.count))))
            #expect(readTag(cut, chunkSize: 1)?.metadata == readTag(cut)?.metadata, "seed \(seed), cut")
        }
    }
}
