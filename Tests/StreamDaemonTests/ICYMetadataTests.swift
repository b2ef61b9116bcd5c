@testable import AudioStreamProtocol
import Foundation
import Testing

/// `ICYMetadata` read from blocks as servers send them, and `SourceMetadataQueue`'s place for each block.
///
/// Expected titles follow from the ICY text format (`key='value';…`, NUL-padded to a multiple of 16), and the
/// Windows-1252 decodings are Python's `cp1252` codec (checked with `python3 -c "print(b'…'.decode('cp1252'))"`).
@Suite struct ICYMetadataTests {
    /// `text` as a block: its bytes, NUL-padded to a multiple of 16.
    static func block(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16)
    }

    static func read(_ bytes: [UInt8]) -> ICYMetadata? {
        bytes.withUnsafeBytes { ICYMetadata(block: $0) }
    }

    static func read(_ text: String) -> ICYMetadata? {
        read(block(Array(text.utf8)))
    }

    static func fields(_ pairs: KeyValuePairs<String, String>) -> [ICYMetadata.Field] {
        pairs.map { ICYMetadata.Field(key: $0.key, value: $0.value) }
    }

    @Test func titleAndURL() throws {
        let text = "StreamTitle='A - B';StreamUrl='http://x/';"
        let metadata = try #require(Self.read(text))
        #expect(metadata.streamTitle == "A - B")
        #expect(metadata.streamUrl == "http://x/")
        #expect(metadata.fields == Self.fields(["StreamTitle": "A - B", "StreamUrl": "http://x/"]))
        #expect(metadata.text == text)
    }

    @Test func anEmptyTitleIsClearedNotMissing() throws {
        let cleared = try #require(Self.read("StreamTitle='';"))
        #expect(cleared.streamTitle == "")
        #expect(cleared.streamUrl == nil)
        let both = try #require(Self.read("StreamTitle='';StreamUrl='';"))
        #expect(both.streamTitle == "")
        #expect(both.streamUrl == "")
    }

    @Test func noStreamTitleIsNil() throws {
        let urlOnly = try #require(Self.read("StreamUrl='http://example.com/station';"))
        #expect(urlOnly.streamTitle == nil)
        #expect(urlOnly.streamUrl == "http://example.com/station")
        let other = try #require(Self.read("adw_ad='true';"))
        #expect(other.streamTitle == nil)
        #expect(other.streamUrl == nil)
        #expect(other.fields == Self.fields(["adw_ad": "true"]))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let title: String?
        let url: String?
        var testDescription: String { text }
    }

    /// A value ends only at a quote followed by the end, or by `;` and then the end or another `key=`.
    @Test(arguments: [
        Case(text: "StreamTitle='Don't Stop';StreamUrl='http://x/';", title: "Don't Stop", url: "http://x/"),
        Case(text: "StreamTitle='Don't Stop';", title: "Don't Stop", url: nil),
        Case(text: "StreamTitle='It's';", title: "It's", url: nil),
        Case(text: "StreamTitle='A; B';StreamUrl='http://x/';", title: "A; B", url: "http://x/"),
        Case(text: "StreamTitle='A; B';", title: "A; B", url: nil),
        Case(text: "StreamTitle='Rock 'n' Roll; Don't Stop';StreamUrl='u';", title: "Rock 'n' Roll; Don't Stop",
             url: "u"),
        Case(text: "StreamTitle='Guns N' Roses - Don't Cry; Live';StreamUrl='http://x/gnr';",
             title: "Guns N' Roses - Don't Cry; Live", url: "http://x/gnr"),
        Case(text: "StreamTitle='Tom';s Diner';StreamUrl='http://x/';", title: "Tom';s Diner", url: "http://x/"),
        Case(text: "StreamTitle='Tom';s Diner';", title: "Tom';s Diner", url: nil),
        Case(text: "StreamTitle='Lovin'; Touchin'; Squeezin'';", title: "Lovin'; Touchin'; Squeezin'", url: nil),
        Case(text: "StreamTitle='Lovin'; Touchin'; Squeezin'';StreamUrl='http://x/';",
             title: "Lovin'; Touchin'; Squeezin'", url: "http://x/"),
        Case(text: "StreamTitle='A - B'", title: "A - B", url: nil),
        Case(text: "StreamTitle='A - B';StreamUrl='http://x/'", title: "A - B", url: "http://x/"),
        Case(text: "StreamTitle='E=MC2';StreamUrl='';", title: "E=MC2", url: ""),
        Case(text: "StreamTitle='x=1;y=2';StreamUrl='http://x/?a=1;b=2';", title: "x=1;y=2",
             url: "http://x/?a=1;b=2"),
    ])
    func quotesAndSemicolonsInsideTitles(_ example: Case) throws {
        let metadata = try #require(Self.read(example.text))
        #expect(metadata.streamTitle == example.title)
        #expect(metadata.streamUrl == example.url)
        #expect(metadata.text == example.text)
    }

    @Test func nulPaddingIsNotPartOfTheText() throws {
        let text = "StreamTitle='Air - Sexy Boy';"  // 29 bytes: 3 NULs make 32
        let padded = Self.block(Array(text.utf8))
        #expect(padded.count == 32)
        let metadata = try #require(Self.read(padded))
        #expect(metadata.text == text)
        #expect(metadata.streamTitle == "Air - Sexy Boy")
        // Padded all the way to the largest block.
        let long = try #require(Self.read(Array(text.utf8) + [UInt8](repeating: 0, count: 4080 - 29)))
        #expect(long.text == text)
        #expect(long.streamTitle == "Air - Sexy Boy")
        // Text filling its block exactly, no NUL.
        for exact in ["StreamTitle='x';", "StreamTitle='ABCDEFGHIJKLMNOPQ';"] {
            #expect(exact.utf8.count % 16 == 0)
            let metadata = try #require(Self.read(Array(exact.utf8)))
            #expect(metadata.text == exact)
            #expect(metadata.streamTitle == String(exact.dropFirst(13).dropLast(2)))
        }
    }

    @Test func aBlockOfPaddingOnlyIsNil() {
        #expect(Self.read([UInt8](repeating: 0, count: 16)) == nil)
        #expect(Self.read([UInt8](repeating: 0, count: 4080)) == nil)
        #expect(Self.read([UInt8]()) == nil)
    }

    @Test func utf8Titles() throws {
        let titles = ["Sigur Rós – Hoppípolla", "坂本龍一 – 戦場のメリークリスマス 🎹", "Édith Piaf – Non, je ne regrette rien"]
        for title in titles {
            let text = "StreamTitle='\(title)';StreamUrl='http://x/';"
            let metadata = try #require(Self.read(text))
            #expect(Array(try #require(metadata.streamTitle).unicodeScalars) == Array(title.unicodeScalars))
            #expect(Array(metadata.text.unicodeScalars) == Array(text.unicodeScalars))
        }
    }

    /// Text that is not valid UTF-8 is Windows-1252. Python: `b"Caf\xe9 \x96 \x93Tom\x94 \x80 5".decode("cp1252")`
    /// is 'Café – “Tom” € 5' (U+00E9, U+2013, U+201C, U+201D, U+20AC).
    @Test func windows1252WhenNotUTF8() throws {
        let bytes = Array("StreamTitle='Caf".utf8) + [0xE9, 0x20, 0x96, 0x20, 0x93] + Array("Tom".utf8)
            + [0x94, 0x20, 0x80] + Array(" 5';StreamUrl='http://x/';".utf8)
        let metadata = try #require(Self.read(Self.block(bytes)))
        let title = "Caf\u{E9} \u{2013} \u{201C}Tom\u{201D} \u{20AC} 5"
        #expect(Array(try #require(metadata.streamTitle).unicodeScalars) == Array(title.unicodeScalars))
        #expect(metadata.streamUrl == "http://x/")
        let raw = "StreamTitle='\(title)';StreamUrl='http://x/';"
        #expect(Array(metadata.text.unicodeScalars) == Array(raw.unicodeScalars))

        // One invalid byte makes the whole block Windows-1252, its UTF-8 parts too. Python:
        // b"StreamTitle='Bj\xc3\xb6rk \xe9';".decode("cp1252") == "StreamTitle='BjÃ¶rk é';"
        let mixed = try #require(Self.read(Self.block(Array("StreamTitle='Bj".utf8) + [0xC3, 0xB6]
            + Array("rk ".utf8) + [0xE9] + Array("';".utf8))))
        #expect(Array(try #require(mixed.streamTitle).unicodeScalars)
            == Array("Bj\u{C3}\u{B6}rk \u{E9}".unicodeScalars))

        // An apostrophe inside a Windows-1252 title. Python: b"Sin\xe9ad O'Connor \x96 Nothing".decode("cp1252").
        let sinead = try #require(Self.read(Self.block(Array("StreamTitle='Sin".utf8) + [0xE9]
            + Array("ad O'Connor ".utf8) + [0x96] + Array(" Nothing';".utf8))))
        #expect(Array(try #require(sinead.streamTitle).unicodeScalars)
            == Array("Sin\u{E9}ad O'Connor \u{2013} Nothing".unicodeScalars))
    }

    /// Every byte against Python's cp1252 table (`bytes(range(0x80, 0x100)).decode("cp1252")` per byte), and
    /// the five bytes Python leaves undefined (81 8D 8F 90 9D) as the WHATWG Encoding Standard's
    /// index-windows-1252 maps them: to the C1 control of the same value.
    @Test func windows1252Table() {
        let ascii = [UInt8](0...0x7F)
        #expect(ascii.withUnsafeBytes { Array(Windows1252.decode($0).unicodeScalars.map(\.value)) }
            == ascii.map(UInt32.init))
        let python = "\u{20AC}\u{201A}\u{192}\u{201E}\u{2026}\u{2020}\u{2021}\u{2C6}\u{2030}\u{160}\u{2039}\u{152}"
            + "\u{17D}\u{2018}\u{2019}\u{201C}\u{201D}\u{2022}\u{2013}\u{2014}\u{2DC}\u{2122}\u{161}\u{203A}\u{153}"
            + "\u{17E}\u{178}\u{A0}\u{A1}\u{A2}\u{A3}\u{A4}\u{A5}\u{A6}\u{A7}\u{A8}\u{A9}\u{AA}\u{AB}\u{AC}\u{AD}"
            + "\u{AE}\u{AF}\u{B0}\u{B1}\u{B2}\u{B3}\u{B4}\u{B5}\u{B6}\u{B7}\u{B8}\u{B9}\u{BA}\u{BB}\u{BC}\u{BD}"
            + "\u{BE}\u{BF}\u{C0}\u{C1}\u{C2}\u{C3}\u{C4}\u{C5}\u{C6}\u{C7}\u{C8}\u{C9}\u{CA}\u{CB}\u{CC}\u{CD}"
            + "\u{CE}\u{CF}\u{D0}\u{D1}\u{D2}\u{D3}\u{D4}\u{D5}\u{D6}\u{D7}\u{D8}\u{D9}\u{DA}\u{DB}\u{DC}\u{DD}"
            + "\u{DE}\u{DF}\u{E0}\u{E1}\u{E2}\u{E3}\u{E4}\u{E5}\u{E6}\u{E7}\u{E8}\u{E9}\u{EA}\u{EB}\u{EC}\u{ED}"
            + "\u{EE}\u{EF}\u{F0}\u{F1}\u{F2}\u{F3}\u{F4}\u{F5}\u{F6}\u{F7}\u{F8}\u{F9}\u{FA}\u{FB}\u{FC}\u{FD}"
            + "\u{FE}\u{FF}"
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        let defined = (0x80...0xFF).map(UInt8.init).filter { !undefined.contains($0) }
        #expect(defined.withUnsafeBytes { Array(Windows1252.decode($0).unicodeScalars) }
            == Array(python.unicodeScalars))
        #expect(undefined.sorted().withUnsafeBytes { Array(Windows1252.decode($0).unicodeScalars.map(\.value)) }
            == [0x81, 0x8D, 0x8F, 0x90, 0x9D])
    }

    @Test func extraKeysAreKeptInOrder() throws {
        let text = "StreamTitle='Advertisement';StreamUrl='';adw_ad='true';durationMilliseconds='15000';"
            + "adId='4711';insertionType='midroll';"
        let metadata = try #require(Self.read(text))
        #expect(metadata.fields == Self.fields([
            "StreamTitle": "Advertisement", "StreamUrl": "", "adw_ad": "true", "durationMilliseconds": "15000",
            "adId": "4711", "insertionType": "midroll",
        ]))
        #expect(metadata.streamTitle == "Advertisement")
        #expect(metadata.streamUrl == "")
        #expect(metadata.value(of: "durationMilliseconds") == "15000")
        #expect(metadata.value(of: "INSERTIONTYPE") == "midroll")
        #expect(metadata.value(of: "missing") == nil)
        #expect(metadata.text == text)
    }

    @Test func keysMatchWithoutCase() throws {
        let metadata = try #require(Self.read("streamtitle='x - y';STREAMURL='http://x/';"))
        #expect(metadata.streamTitle == "x - y")
        #expect(metadata.streamUrl == "http://x/")
        #expect(metadata.fields == Self.fields(["streamtitle": "x - y", "STREAMURL": "http://x/"]))
    }

    // MARK: - JSON

    static func object(_ json: JSON) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
    }

    @Test func jsonEvent() throws {
        let metadata = try #require(Self.read("StreamTitle='Say \"Hi\" \\ Bye – ok 🎹';StreamUrl='http://x/';"))
        let json = metadata.json(offset: 5_000_000_123)
        let object = try Self.object(json)
        #expect(Set(object.keys) == ["event", "source", "offset", "streamTitle", "streamUrl", "tags", "raw", "text"])
        #expect(object["event"] as? String == "metadata")
        #expect(object["source"] as? String == "icy")
        #expect((object["offset"] as? NSNumber)?.int64Value == 5_000_000_123)
        #expect(object["streamTitle"] as? String == "Say \"Hi\" \\ Bye – ok 🎹")
        #expect(object["streamUrl"] as? String == "http://x/")
        #expect(object["text"] as? String == "StreamTitle='Say \"Hi\" \\ Bye – ok 🎹';StreamUrl='http://x/';")
        // Like a tag's event: the common title, and each field under its ICY key.
        #expect((object["tags"] as? [String: Any])?["title"] as? String == "Say \"Hi\" \\ Bye – ok 🎹")
        let raw = try #require(object["raw"] as? [[String: Any]])
        #expect(raw.map { $0["id"] as? String } == ["StreamTitle", "StreamUrl"])
        #expect(raw.map { ($0["text"] as? [String])?.first } == ["Say \"Hi\" \\ Bye – ok 🎹", "http://x/"])
        // Keys in the documented order.
        let text = json.text
        let positions = ["\"event\":", "\"source\":", "\"offset\":", "\"streamTitle\":", "\"streamUrl\":", "\"tags\":", "\"raw\":",
                         "\"text\":"]
            .map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(text.hasPrefix("{\"event\":\"metadata\",\"source\":\"icy\",\"offset\":5000000123,\"streamTitle\":"))
    }

    @Test func jsonGivesNullForMissingTitleAndURL() throws {
        let urlOnly = try Self.object(try #require(Self.read("StreamUrl='http://x/';")).json(offset: 0))
        #expect(urlOnly["streamTitle"] is NSNull)
        #expect(urlOnly["streamUrl"] as? String == "http://x/")
        #expect((urlOnly["offset"] as? NSNumber)?.intValue == 0)
        let cleared = try Self.object(try #require(Self.read("StreamTitle='';")).json(offset: 64))
        #expect(cleared["streamTitle"] as? String == "")
        #expect(cleared["streamUrl"] is NSNull)
        #expect(cleared["text"] as? String == "StreamTitle='';")
        // A cleared title is no common title.
        #expect((cleared["tags"] as? [String: Any])?.isEmpty == true)
    }

    // MARK: - Queue

    static func metadata(_ title: String) -> SourceMetadata {
        .icy(ICYMetadata(text: "StreamTitle='\(title)';"))
    }

    static func title(_ metadata: SourceMetadata) -> String {
        guard case .icy(let icy) = metadata else { return "<not ICY>" }
        return icy.streamTitle ?? "<no title>"
    }

    /// Blocks at audio offsets, packets at offsets: each block goes out just before the first packet at or after
    /// its offset, oldest first, and the end releases the rest.
    @Test func blocksGoOutBeforeTheFirstPacketAtOrAfterTheirOffset() {
        var queue = SourceMetadataQueue()
        var out: [String] = []
        let record = { (metadata: SourceMetadata, offset: Int64) in out.append("\(Self.title(metadata))@\(offset)") }
        // Blocks: A at 0, B and C at 100, D at 250, E after the last packet.
        queue.append(Self.metadata("A"), at: 0, overflow: record)
        queue.append(Self.metadata("B"), at: 100, overflow: record)
        queue.append(Self.metadata("C"), at: 100, overflow: record)
        queue.append(Self.metadata("D"), at: 250, overflow: record)
        queue.append(Self.metadata("E"), at: 1000, overflow: record)
        for packet: Int64 in [0, 50, 100, 200, 300, 400] {
            queue.release(upTo: packet, record)
            out.append("packet \(packet)")
        }
        queue.release(upTo: .max, record)
        #expect(out == ["A@0", "packet 0", "packet 50", "B@100", "C@100", "packet 100", "packet 200", "D@250",
                        "packet 300", "packet 400", "E@1000"])
    }

    @Test func nothingIsReleasedBeforeItsOffset() {
        var queue = SourceMetadataQueue()
        var released: [Int64] = []
        let record = { (_: SourceMetadata, offset: Int64) in released.append(offset) }
        queue.release(upTo: .max) { released.append($1) }
        #expect(released.isEmpty)
        queue.append(Self.metadata("A"), at: 64, overflow: record)
        queue.release(upTo: 63) { released.append($1) }
        #expect(released.isEmpty)
        queue.release(upTo: 64) { released.append($1) }
        #expect(released == [64])
        queue.release(upTo: .max) { released.append($1) }
        #expect(released == [64], "released once only")
    }

    /// A stream without packets cannot pile metadata up: past the capacity the oldest goes out at once.
    @Test func aFullQueueHandsOverItsOldestItem() {
        var queue = SourceMetadataQueue()
        var early: [String] = []
        for index in 0..<(SourceMetadataQueue.capacity + 3) {
            queue.append(Self.metadata("\(index)"), at: Int64(index)) { metadata, _ in early.append(Self.title(metadata)) }
        }
        #expect(early == ["0", "1", "2"])
        var rest: [String] = []
        queue.release(upTo: .max) { metadata, _ in rest.append(Self.title(metadata)) }
        #expect(rest == (3..<(SourceMetadataQueue.capacity + 3)).map(String.init))
    }

    @Test func int64MaxReleasesEverythingInOrder() {
        var queue = SourceMetadataQueue()
        let offsets: [Int64] = [64, 64, 128, 4096, .max - 1, .max]
        let record = { (_: SourceMetadata, _: Int64) -> Void in Issue.record("nothing overflows six items") }
        for (index, offset) in offsets.enumerated() { queue.append(Self.metadata("\(index)"), at: offset, overflow: record) }
        var released: [(String, Int64)] = []
        queue.release(upTo: .max) { released.append((Self.title($0), $1)) }
        #expect(released.map(\.0) == ["0", "1", "2", "3", "4", "5"])
        #expect(released.map(\.1) == offsets)
    }
}
