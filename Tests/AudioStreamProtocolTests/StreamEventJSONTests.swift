import AudioFileStream
import AudioStreamProtocol
import FixtureSupport
import Foundation
import Testing

/// The `end` and `source` events as docs/protocol.md shows them, byte for byte: clients match these keys.
@Suite struct StreamEventJSONTests {
    @Test(arguments: [
        (EndReason.sourceEnded(failure: nil), #"{"event":"end","reason":"sourceEnded"}"#),
        (.sourceEnded(failure: "HTTP 404 Not Found (gave up after 3 failed attempts)"),
         #"{"event":"end","reason":"sourceEnded","error":"HTTP 404 Not Found (gave up after 3 failed attempts)"}"#),
        (.unsupportedFormat(error: "unsupported file type ('typ?')"),
         #"{"event":"end","reason":"unsupportedFormat","error":"unsupported file type ('typ?')"}"#),
        (.removedByReload, #"{"event":"end","reason":"removedByReload"}"#),
        (.restartedByReload, #"{"event":"end","reason":"restartedByReload"}"#),
        (.daemonStopping, #"{"event":"end","reason":"daemonStopping"}"#),
    ])
    func theEndSaysWhy(_ reason: EndReason, _ text: String) {
        #expect(EventJSON.end(reason).text == text)
    }

    @Test(arguments: [
        (SourceState.connected(attempt: 0), #"{"event":"source","state":"connected","attempt":0}"#),
        (.lost(error: "HTTP 503 Service Unavailable"),
         #"{"event":"source","state":"lost","error":"HTTP 503 Service Unavailable"}"#),
        (.stalled(error: "stalled: no data for 15 s"),
         #"{"event":"source","state":"stalled","error":"stalled: no data for 15 s"}"#),
        (.reconnecting(attempt: 3, delay: 3.14159), #"{"event":"source","state":"reconnecting","attempt":3,"delay":3.142}"#),
        (.fallback, #"{"event":"source","state":"fallback"}"#), (.restored, #"{"event":"source","state":"restored"}"#),
    ])
    func aSourceStateIsOneEvent(_ state: SourceState, _ text: String) {
        #expect(EventJSON.source(state).text == text)
    }

    /// A channel layout named by a tag, and one given by a WAVE channel mask no tag names (5.1 with side
    /// surrounds), whose bitmap is sent too.
    @Test func channelLayoutsSayTheirPositions() {
        #expect(EventJSON.value(.channelLayout(.stereo)).text == #"{"channelLayoutTag":6619138,"channels":2}"#)
        let side = AudioChannelLayout(tag: AudioChannelLayout.useChannelBitmap, channelBitmap: 0x60F)
        #expect(EventJSON.value(.channelLayout(side)).text
                == #"{"channelLayoutTag":65536,"channelBitmap":1551,"channels":6}"#)
    }

    /// Each property the parser announces, with a value and its JSON as docs/protocol.md's table shapes it.
    static let propertyShapes: [(AudioFileStreamPropertyID, AudioFileStreamPropertyValue, String)] = {
        let format = AudioStreamBasicDescription(sampleRate: 44100, formatID: AudioFormatID.mpeg4AAC, formatFlags: 2,
                                                 framesPerPacket: 1024, channelsPerFrame: 2)
        let formatText = #"{"sampleRate":44100,"formatID":"aac ","formatFlags":2,"bytesPerPacket":0,"#
            + #""framesPerPacket":1024,"bytesPerFrame":0,"channelsPerFrame":2,"bitsPerChannel":0}"#
        return [
            (.readyToProducePackets, .uint32(1), "1"),
            (.fileFormat, .fileType(.ogg), #""Ogg ""#),
            (.dataFormat, .format(format), formatText),
            (.formatList, .formatList([AudioFormatListItem(format: format, channelLayoutTag: 101 << 16 | 2)]),
             #"[{"format":"# + formatText + #","channelLayoutTag":6619138}]"#),
            // AAC LC, 44.1 kHz, stereo: ISO 14496-3's AudioSpecificConfig 0x12 0x10; a byte below 16 keeps its 0.
            (.magicCookieData, .data([0x12, 0x10, 0x05]), #""121005""#),
            (.channelLayout, .channelLayout(AudioChannelLayout(tag: 101 << 16 | 2)),
             #"{"channelLayoutTag":6619138,"channels":2}"#),
            (.channelLayout, .channelLayout(AudioChannelLayout(tag: AudioChannelLayout.useChannelBitmap,
                                                               channelBitmap: 0x3F)),
             #"{"channelLayoutTag":65536,"channelBitmap":63,"channels":6}"#),
            (.packetTableInfo, .packetTableInfo(PacketTableInfo(validFrames: 66150, primingFrames: 1105,
                                                                remainderFrames: 713)),
             #"{"validFrames":66150,"primingFrames":1105,"remainderFrames":713}"#),
            (.audioDataByteCount, .uint64(32406), "32406"),
            (.audioDataPacketCount, .uint64(59), "59"),
            (.dataOffset, .int64(417), "417"),
            (.maximumPacketSize, .uint32(441), "441"),
            (.packetSizeUpperBound, .uint32(8184), "8184"),
            (.bitRate, .uint32(128000), "128000"),
            (.restrictsRandomAccess, .uint32(0), "0"),
            (.averageBytesPerPacket, .float64(355.25), "355.25"),
            (.infoDictionary, .dictionary(["nominal bit rate": "128000", "title": "Song"]),
             #"{"nominal bit rate":"128000","title":"Song"}"#),
        ]
    }()

    @Test func eachPropertyValueHasItsDocumentedShape() throws {
        let protocolText = try String(
            contentsOf: Fixtures.directory.appendingPathComponent("../../docs/protocol.md"), encoding: .utf8)
        let documented = Set(protocolText.split(separator: "\n").filter { $0.hasPrefix("  | `") }
            .flatMap { row in row.split(separator: "|")[1].split(separator: "`").enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) } })
        for (id, value, text) in Self.propertyShapes {
            #expect(EventJSON.value(value).text == text, "\(id)")
            #expect(documented.contains(id.description), "\(id) is not in docs/protocol.md's table")
        }
        // The translations are asked of the parser, never announced.
        let translations: Set<AudioFileStreamPropertyID> = [
            .packetToFrame, .frameToPacket, .packetToByte, .byteToPacket,
        ]
        #expect(Set(Self.propertyShapes.map(\.0)) == Set(AudioFileStreamPropertyID.allCases).subtracting(translations))
        #expect(Self.propertyShapes.count == 17)
    }
}
