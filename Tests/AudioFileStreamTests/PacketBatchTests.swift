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

    /// IMA4 in CAF: 34-byte packets of 64 frames, without descriptions.
    static let ima4 = AudioStreamBasicDescription(sampleRate: 8000, formatID: AudioFormatID.appleIMA4,
                                                  bytesPerPacket: 34, framesPerPacket: 64, channelsPerFrame: 1)

    @Test func constantSizePacketsAreListedOneByOne() {
        let bytes = (0..<(34 * 3 + 5)).map { UInt8(truncatingIfNeeded: $0) }
        bytes.withUnsafeBytes { bytes in
            let batch = PacketBatch(bytes: bytes, format: Self.ima4, descriptions: nil, streamOffset: 1000,
                                    firstPacketIndex: 0, followsDiscontinuity: false, isAssembled: false)
            let packets = batch.packets
            // The 5 bytes after the last whole packet are none.
            #expect(packets.count == 3 && packets.areConstant)
            #expect(packets.map(\.offset) == [1000, 1034, 1068])
            #expect(packets.map(\.frames) == [64, 64, 64])
            #expect(Array(packets[1].bytes) == Array(bytes[34..<68]))
            let span = packets.span(1..<3)
            #expect(span.offset == 1034 && span.frames == 128 && Array(span.bytes) == Array(bytes[34..<102]))
        }
    }

    @Test func describedPacketsKeepTheirOwnFramesAndWhatLiesBetweenThemInASpan() {
        let variable = AudioStreamBasicDescription(sampleRate: 48000, formatID: AudioFormatID.opus, framesPerPacket: 0,
                                                   channelsPerFrame: 2)
        // Three packets with 2 bytes of framing before the second (as an ADTS header would be).
        let descriptions = [
            AudioStreamPacketDescription(startOffset: 0, variableFramesInPacket: 960, dataByteSize: 10),
            AudioStreamPacketDescription(startOffset: 12, variableFramesInPacket: 120, dataByteSize: 6),
            AudioStreamPacketDescription(startOffset: 18, variableFramesInPacket: 480, dataByteSize: 4),
        ]
        let bytes = (0..<22).map { UInt8($0) }
        bytes.withUnsafeBytes { bytes in
            descriptions.withUnsafeBufferPointer { descriptions in
                let batch = PacketBatch(bytes: bytes, format: variable, descriptions: descriptions, streamOffset: 50,
                                        firstPacketIndex: 7, followsDiscontinuity: true, isAssembled: false)
                #expect(batch.packets.map(\.frames) == [960, 120, 480])
                #expect(batch.packets.map(\.offset) == [50, 62, 68])
                #expect(batch.packets.map { $0.bytes.count } == [10, 6, 4])
                #expect(Array(batch.packets.span(0..<2).bytes) == Array(0..<18))
                batch.withPackets(1..<3) { part in
                    #expect(part.streamOffset == 62 && part.firstPacketIndex == 8 && !part.followsDiscontinuity)
                    #expect(part.frameCount == 600 && Array(part.bytes) == Array(12..<22))
                    #expect(part.packets.map(\.offset) == [62, 68])
                }
            }
        }
    }

    @Test func anOwnedEventGivesBackTheSamePackets() {
        let bytes: [UInt8] = Array(repeating: 7, count: 34 * 2)
        let owned = bytes.withUnsafeBytes { bytes in
            OwnedEvent(.packets(PacketBatch(bytes: bytes, format: Self.ima4, descriptions: nil, streamOffset: 9,
                                            firstPacketIndex: 3, followsDiscontinuity: true, isAssembled: false)))
        }
        #expect(owned.byteCount == 68)
        owned.withEvent { event in
            guard case .packets(let batch) = event else {
                Issue.record("not packets: \(event)")
                return
            }
            #expect(batch.streamOffset == 9 && batch.firstPacketIndex == 3 && batch.followsDiscontinuity)
            #expect(batch.packets.count == 2 && batch.frameCount == 128 && Array(batch.bytes) == bytes)
        }
    }
}
