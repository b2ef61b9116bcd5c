import AudioStreamProtocol
import Testing

/// The fixed messages and the daemon's own events, byte for byte as docs/protocol.md shows them.
@Suite struct WireProtocolMessagesTests {
    @Test func theWelcomeErrorAndRequestAreAsDocumented() {
        #expect(WireProtocol.welcome(stream: "NAME").text == #"{"protocol":1,"stream":"NAME"}"#)
        #expect(WireProtocol.error("bad hello: unknown kind 'video'").text
                == #"{"error":"bad hello: unknown kind 'video'"}"#)
        #expect(WireProtocol.statusRequest.text == #"{"command":"status"}"#)
    }

    @Test func anOverflowIsADiscontinuityWithWhatWasDropped() {
        let event = EventJSON.overflow(resumingAt: 55584, skippedBytes: 55584, droppedPackets: 772,
                                       droppedFrames: 444672)
        #expect(event.text == #"{"event":"discontinuity","offset":55584,"skippedBytes":55584,"reason":"overflow","#
                + #""droppedPackets":772,"droppedFrames":444672}"#)
    }

    /// A whole message: a 4-byte big-endian length counting the type byte and payload, the type, the payload.
    @Test func aMessageIsLengthTypeAndPayload() throws {
        let message = WireProtocol.message(.request, json: WireProtocol.statusRequest)
        let payload = Array(#"{"command":"status"}"#.utf8)
        #expect(message == [0, 0, 0, UInt8(payload.count + 1), 7] + payload)
    }
}
