import NIOCore
@testable import StreamDaemon
import Testing

/// ICY blocks and the response head as Icecast's relay and players parse them.
@Suite struct ICYMetadataBlockTests {
    @Test func aBlockIsALengthInSixteenByteUnitsThenTheTextPaddedWithZeros() {
        let block = ICYMetadataBlock.encode(NowPlaying(ICYMetadata(text: "StreamTitle='It's on';StreamUrl='http://a/';"))!)
        let bytes = Array(block.readableBytesView)
        let text = Array("StreamTitle='It's on';StreamUrl='http://a/';".utf8)
        #expect(Int(bytes[0]) == (text.count + 15) / 16)
        #expect(bytes.count == 1 + Int(bytes[0]) * 16)
        #expect(Array(bytes[1...text.count]) == text)
        #expect(bytes[(1 + text.count)...].allSatisfy { $0 == 0 })
    }

    @Test func aTitleTooLongForOneBlockIsCutAtACharacterBoundary() {
        let block = ICYMetadataBlock.encode(NowPlaying(ICYMetadata(text: "StreamTitle='\(String(repeating: "é", count: 3000))';"))!)
        let bytes = Array(block.readableBytesView)
        #expect(bytes[0] == 255)
        let text = bytes.dropFirst().filter { $0 != 0 }
        #expect(String(validating: text, as: UTF8.self)?.hasSuffix("é';") == true)
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
