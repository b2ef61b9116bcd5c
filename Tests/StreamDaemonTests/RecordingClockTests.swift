@testable import AudioFileStream
@testable import StreamDaemon
import Testing

/// The recording's clock: set at the first packet and after a source's (re)start, and again when audio comes
/// more than 2 s later than its own duration allows; never for audio that comes early (a burst).
@Suite struct RecordingClockTests {
    static let format = AudioStreamBasicDescription(sampleRate: 44100, formatID: AudioFormatID.mpegLayer3,
                                                    framesPerPacket: 1152, channelsPerFrame: 2)

    /// Calls `body` with a batch of `packets` MP3 packets (1152 frames each).
    static func withBatch<Result>(packets: Int, _ body: (AudioFileStreamEvent) -> Result) -> Result {
        let descriptions = (0..<packets).map {
            AudioStreamPacketDescription(startOffset: Int64($0), variableFramesInPacket: 0, dataByteSize: 1)
        }
        let bytes = [UInt8](repeating: 0, count: packets)
        return bytes.withUnsafeBytes { bytes in
            descriptions.withUnsafeBufferPointer { descriptions in
                body(.packets(PacketBatch(bytes: bytes, format: format, descriptions: descriptions, streamOffset: 0,
                                          firstPacketIndex: 0, followsDiscontinuity: false, isAssembled: false)))
            }
        }
    }

    @Test func aStallSetsTheClockAgainAndABurstDoesNot() {
        var clock = RecordingClock()
        // 1 s of audio: 38.28 packets; 39 packets are 1.0187 s.
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1000) } == 1000)
        // On time, and early (a burst of 10 s at once).
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1001) } == nil)
        #expect(Self.withBatch(packets: 383) { clock.time(before: $0, now: 1002) } == nil)
        // 12.2 s of audio so far; 1.5 s late is jitter, 15 s late a stall.
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1013.7) } == nil)
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1029) } == 1029)
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1030) } == nil)
    }

    @Test func aSourceThatStartsAgainSetsTheClockAtItsFirstPacket() {
        var clock = RecordingClock()
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1000) } == 1000)
        for reason in [Discontinuity.Reason.reconnect, .input] {
            let discontinuity = AudioFileStreamEvent.discontinuity(Discontinuity(offset: 0, skippedBytes: 0, reason: reason))
            #expect(clock.time(before: discontinuity, now: 1000.5) == nil)
            #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1000.6) } == 1000.6)
        }
        // A resync within a source leaves it.
        let resync = AudioFileStreamEvent.discontinuity(Discontinuity(offset: 0, skippedBytes: 9, reason: .resync))
        #expect(clock.time(before: resync, now: 1001) == nil)
        #expect(Self.withBatch(packets: 39) { clock.time(before: $0, now: 1001.5) } == nil)
    }
}
