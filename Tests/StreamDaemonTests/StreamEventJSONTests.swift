import AudioFileStream
@testable import StreamDaemon
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
}
