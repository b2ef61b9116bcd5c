import Testing
import FixtureSupport
@testable import AudioFileStream

/// Tags as the stream sees them: never packets, never buffered beyond the limits, merged into InfoDictionary.
@Suite struct StreamTagTests {
    @Test func aTagClaiming256MBStreamsPastWithBoundedMemory() throws {
        let audio = Fixtures.named("l3-noxing.mp3")
        let claimed = (1 << 28) - 1  // the largest ID3v2 size: four syncsafe bytes of 0x7F
        var packets: [PacketRecord] = []
        var titles: [String?] = []
        let stream = try AudioFileStream { event in
            switch event {
            case .packets(let batch):
                packets += batch.descriptions!.map {
                    PacketRecord(offset: batch.streamOffset + $0.startOffset, size: Int($0.dataByteSize))
                }
            case .metadata(let tag): titles.append(tag.metadata.tags.title)
            default: break
            }
        }
        // An ID3v2.4 header, one TIT2 frame ("x", UTF-8), then padding to the claimed size.
        let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 2, 0, 0, 3, 0x78]
        try stream.parse([0x49, 0x44, 0x33, 4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F] + frame)
        let zeros = [UInt8](repeating: 0, count: 64 * 1024)
        var fed = frame.count
        var maximumBuffered = 0
        while fed < claimed {
            let count = min(zeros.count, claimed - fed)
            try zeros.withUnsafeBytes { try stream.parse(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            maximumBuffered = max(maximumBuffered, stream.bufferedByteCount)
            fed += count
        }
        try stream.parse(audio.bytes)
        try stream.finish()
        #expect(maximumBuffered < 16)
        #expect(titles == ["x"])
        let tagSize = Int64(10 + claimed)
        #expect(packets == audio.expectedPackets.map { PacketRecord(offset: $0.offset + tagSize, size: $0.size) })
    }

    /// A file of an ID3v2 tag and one frame: the tag before it and the end of the input after it bound the
    /// frame, as the start and the end of the input bound a file of one frame. The frame is the fixture's first,
    /// as ffprobe found it.
    @Test(arguments: ["l3-noxing.mp3", "l2-192k-stereo.mp2"])
    func aLoneFrameBetweenATagAndTheEndIsAPacket(name: String) throws {
        let fixture = Fixtures.named(name)
        let first = try #require(fixture.expectedPackets.first)
        let tag = TagBytes.id3v2(version: 4, body: TagBytes.frame("TIT2", [3] + TagBytes.ascii("One frame")))
        let bytes = tag + fixture.bytes[Int(first.offset)..<Int(first.offset) + Int(first.size)]
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 47)] {
            let (packets, _) = try ADTSTests.parsePackets(bytes, chunking: chunking)
            #expect(packets.map { Array($0.prefix(2)) } == [[Int64(tag.count), Int64(first.size)]], "\(chunking)")
        }
    }

    /// `TAG` in text is no ID3v1 tag: an ID3v1 tag (`TAG` and 125 bytes of anything) is believed after a frame
    /// or a tag, at the start of the input or where it ends the input, as taggers place it. So the strings of a
    /// program give no metadata, and do not confirm a frame found in junk before them; a real tag ending the
    /// input still confirms the frame before it.
    @Test func textStartingWithTAGIsNoTagInJunk() throws {
        let fixture = Fixtures.named("l3-noxing.mp3")
        let first = try #require(fixture.expectedPackets.first)
        let frame = Array(fixture.bytes[Int(first.offset)..<Int(first.offset) + Int(first.size)])
        let text = TagBytes.ascii("TAG directive %s: did not find expected <document start>, ")
            + TagBytes.ascii("found unexpected end of stream while scanning a quoted scalar at line %d, column %d")
        let junk = [UInt8](repeating: 0x2E, count: 300)
        for chunking in [Chunking.whole, .fixed(1), .random(seed: 53)] {
            let (events, _) = try parse(junk + text + junk + frame + text + junk, chunking: chunking)
            #expect(events.tags.isEmpty, "\(chunking)")
            #expect(events.packets.isEmpty, "\(chunking)")
        }
        // ID3v1: TAG, a 30-byte title, then artist, album, year, comment and genre.
        let id3v1 = TagBytes.ascii("TAGLast") + [UInt8](repeating: 0, count: 26 + 94) + [255]
        let (events, _) = try parse(junk + frame + id3v1, chunking: .fixed(7))
        #expect(events.packets.map(\.offset) == [Int64(junk.count)])
        #expect(events.tags.map(\.metadata.tags.title) == ["Last"])
    }

    @Test func aTagCutByTheEndOfTheInputGivesTheFramesBeforeTheCut() throws {
        let audio = Fixtures.named("l3-noxing.mp3")
        let whole = TagBytes.frame("TIT2", [0] + TagBytes.ascii("Before the cut"))
            + TagBytes.frame("TPE1", [0] + TagBytes.ascii("Also before"))
        let tag = TagBytes.id3v2(version: 4, body: whole + TagBytes.frame("TALB", [0] + TagBytes.ascii("Cut short")))
        // The input ends 4 bytes into the TALB frame's data.
        let bytes = audio.bytes + tag.prefix(ID3v2Header.length + whole.count + 14)
        var tags = NormalizedTags()
        (tags.title, tags.artist) = ("Before the cut", "Also before")
        let expected = Metadata(source: "id3v2.4", tags: tags, raw: [
            RawTagField(key: "TIT2", value: .text(["Before the cut"])),
            RawTagField(key: "TPE1", value: .text(["Also before"])),
        ])
        for chunking in [Chunking.whole, .fixed(1), .fixed(7)] {
            let (events, _) = try parse(bytes, chunking: chunking)
            #expect(events.tags.map(\.offset) == [Int64(audio.bytes.count)], "\(chunking)")
            #expect(events.tags.map(\.metadata) == [expected], "\(chunking)")
            #expect(events.packets == audio.expectedPackets, "\(chunking)")
        }
    }

    @Test func infoDictionaryCarriesTagsAndDuration() throws {
        let (_, stream) = try parse(Fixtures.named("tags-id3v24.mp3").bytes)
        guard case .dictionary(let info) = try stream.property(.infoDictionary) else {
            Issue.record("no dictionary")
            return
        }
        // Values recorded from mutagen's EasyID3 view in expected/tags-id3v24.tags.json.
        #expect(info["title"] == "Tïtle — v2.4")
        #expect(info["genre"] == "Pop")
        #expect(info["track number"] == "3/12")
        #expect(info["tempo"] == "128")
        #expect(info["approximate duration in seconds"] != nil)
    }
}
