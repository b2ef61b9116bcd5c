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

    @Test func constantSizePacketsFormOneBatchNumberedFromTheDataOffset() {
        var batches: [(offset: Int64, count: Int, first: Int64, hasDescriptions: Bool)] = []
        let output = ParserOutput { event in
            if case .packets(let batch) = event {
                batches.append((batch.streamOffset, batch.bytes.count, batch.firstPacketIndex,
                                batch.descriptions != nil))
            }
        }
        let pcm = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16,
                                                        bytesPerSample: 2, isFloat: false, isBigEndian: false,
                                                        isSigned: true)
        output.announce(.dataFormat, .format(pcm))
        output.announce(.dataOffset, .int64(44))
        [UInt8](repeating: 0, count: 64).withUnsafeBytes { bytes in
            // The buffer starts 4 bytes before the data: its frames start at 4, 8, 12 …
            output.begin(buffer: bytes, offset: 40)
            output.constantPackets(at: 4, count: 3)
            output.constantPackets(at: 16, count: 2)
            // Not following the batch's last packet: a batch of its own.
            output.constantPackets(at: 32, count: 1)
            output.flush()
        }
        #expect(batches.map(\.offset) == [44, 72])
        #expect(batches.map(\.count) == [20, 4])
        #expect(batches.map(\.first) == [0, 7])
        #expect(batches.allSatisfy { !$0.hasDescriptions })
        #expect(output.index.parsedPackets == 6 && output.index.frameCount == 6 && output.index.byteCount == 24)
    }
}
