import Testing
@testable import AudioFileStream

/// A batch's frame count: constant-size PCM batches carry no descriptions, and packets whose frame count
/// varies carry their own.
@Suite struct PacketBatchTests {
    static func batch(bytes: UnsafeRawBufferPointer, format: AudioStreamBasicDescription,
                      descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?) -> PacketBatch {
        PacketBatch(bytes: bytes, format: format, descriptions: descriptions, streamOffset: 0, firstPacketIndex: 0,
                    followsDiscontinuity: false, isAssembled: false)
    }

    @Test func pcmBatchesCountFramesFromTheirBytes() {
        // 16-bit stereo: 4 bytes a frame, one frame a packet (Core Audio's PCM description).
        let pcm = AudioStreamBasicDescription(sampleRate: 44100, formatID: AudioFormatID.linearPCM, bytesPerPacket: 4,
                                              framesPerPacket: 1, bytesPerFrame: 4, channelsPerFrame: 2,
                                              bitsPerChannel: 16)
        [UInt8](repeating: 0, count: 4096).withUnsafeBytes { bytes in
            #expect(Self.batch(bytes: bytes, format: pcm, descriptions: nil).frameCount == 1024)
        }
    }

    @Test func variableFrameCountsAreSummedPacketByPacket() {
        let variable = AudioStreamBasicDescription(sampleRate: 48000, formatID: AudioFormatID.opus, framesPerPacket: 0,
                                                   channelsPerFrame: 2)
        let descriptions = [
            AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 960, dataByteSize: 10),
            AudioStreamPacketDescription(startOffset: 10, variableFramesInPacket: 120, dataByteSize: 10),
        ]
        [UInt8](repeating: 0, count: 20).withUnsafeBytes { bytes in
            descriptions.withUnsafeBufferPointer { descriptions in
                #expect(Self.batch(bytes: bytes, format: variable, descriptions: descriptions).frameCount == 1080)
            }
        }
    }
}
