import AudioStreamProtocol
import NIOCore
@testable import StreamDaemon
import Testing

/// ICY blocks and the response head as Icecast's relay and players parse them.
@Suite struct ICYMetadataBlockTests {
    @Test func aBlockIsALengthInSixteenByteUnitsThenTheTextPaddedWithZeros() {
        let bytes = ICYMetadataBlock.encode(NowPlaying(ICYMetadata(text: "StreamTitle='It's on';StreamUrl='http://a/';"))!)
        let text = Array("StreamTitle='It's on';StreamUrl='http://a/';".utf8)
        #expect(Int(bytes[0]) == (text.count + 15) / 16)
        #expect(bytes.count == 1 + Int(bytes[0]) * 16)
        #expect(Array(bytes[1...text.count]) == text)
        #expect(bytes[(1 + text.count)...].allSatisfy { $0 == 0 })
    }

    @Test func aTitleTooLongForOneBlockIsCutAtACharacterBoundary() {
        let bytes = ICYMetadataBlock.encode(NowPlaying(ICYMetadata(text: "StreamTitle='\(String(repeating: "é", count: 3000))';"))!)
        #expect(bytes[0] == 255)
        let text = bytes.dropFirst().filter { $0 != 0 }
        #expect(String(validating: text, as: UTF8.self)?.hasSuffix("é';") == true)
    }

    /// A station's block whose StreamUrl is 2,040 bytes of 0xE9: not UTF-8, so read as Windows-1252, it is 4,080
    /// bytes of "é" once written as UTF-8, more than a block holds beside any title.
    @Test func aURLTooLongToFitBesideTheTitleIsLeftOutAndTheTitleKept() throws {
        let received = Array("StreamTitle='Song';StreamUrl='".utf8) + Array(repeating: 0xE9, count: 2040) + Array("';".utf8)
        let metadata = try #require(received.withUnsafeBytes { ICYMetadata(block: $0) })
        let bytes = ICYMetadataBlock.encode(try #require(NowPlaying(metadata)))
        #expect(bytes == [2] + Array("StreamTitle='Song';".utf8) + Array(repeating: 0, count: 13))
    }

    /// Titles and URLs of every length around a block's capacity, in characters of one to four UTF-8 bytes and in
    /// clusters of many scalars: each block is whole, within 4,081 bytes, and its text is what a reader reads back.
    @Test func everyTitleAndURLGivesAWholeBlock() throws {
        let characters = ["a", "é", "€", "🎵", "e\u{301}\u{302}\u{303}", "'", ";"]
        let lengths = [0, 1, 15, 16, 1000, 2032, 2040, 2041, 4064, 4065, 4080, 5000]
        var blocks = 0
        for character in characters {
            for titleLength in lengths {
                for urlLength in [nil, 0, 2040, 4080] as [Int?] {
                    let title = String(repeating: character, count: titleLength / character.utf8.count)
                    let url = urlLength.map { String(repeating: "é", count: $0 / 2) }
                    var playing = try #require(NowPlaying(ICYMetadata(text: "StreamTitle='';")))
                    playing.title = title
                    playing.url = url
                    let bytes = ICYMetadataBlock.encode(playing)
                    #expect(bytes.count == 1 + Int(bytes[0]) * 16 && bytes.count <= 1 + ICYMetadataBlock.maximumTextBytes)
                    let text = try #require(String(validating: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self))
                    #expect(text.hasPrefix("StreamTitle='") && text.hasSuffix("';"))
                    if character != "'" && character != ";" {
                        let readBack = ICYMetadata(text: text)
                        let readTitle = try #require(readBack.streamTitle)
                        #expect(title.hasPrefix(readTitle))
                        #expect(readTitle == title || title.utf8.count > ICYMetadataBlock.maximumTextBytes - 15)
                        #expect(readBack.streamUrl == nil || readBack.streamUrl == url)
                    }
                    blocks += 1
                }
            }
        }
        #expect(blocks == 7 * 12 * 4)
    }

    @Test func blocksComeEveryMetaintBytesWhateverTheChunking() {
        var interleaver = ICYInterleaver(metaint: 10)
        interleaver.announce(ByteBuffer(bytes: [1, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41]))
        var out: [UInt8] = []
        for size in [3, 7, 25, 1, 4] {
            interleaver.interleave(ByteBuffer(repeating: 0xEE, count: size)) { out += Array($0.readableBytesView) }
        }
        // 40 audio bytes: a 17-byte block after the first 10, an empty one after 20, 30 and 40.
        #expect(out.count == 40 + 17 + 3)
        #expect(out[10] == 1 && out[11...26].allSatisfy { $0 == 0x41 })
        #expect(out[37] == 0 && out[48] == 0 && out[59] == 0)
        #expect(out.enumerated().filter { ![10, 37, 48, 59].contains($0.offset) && !(11...26).contains($0.offset) }
            .allSatisfy { $0.element == 0xEE })
    }

    @Test func theResponseHeadStaysUnderIcecastsFourKiB() {
        let long = String(repeating: "x", count: 10_000)
        var station = HTTPStreamInfo(headers: ["icy-name": long, "icy-genre": long, "icy-url": long,
                                               "icy-description": long, "icy-br": "128"])
        station.metaint = nil
        let info = MountInfo(streamName: "radio", contentType: "audio/mpeg", carriesICYMetadata: true, station: station)
        let head = HTTPResponse.audioHead(info, http11: false, metaint: 16000)
        #expect(head.readableBytes < 4096)
        #expect(String(buffer: head).hasPrefix("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n"))
    }
}
