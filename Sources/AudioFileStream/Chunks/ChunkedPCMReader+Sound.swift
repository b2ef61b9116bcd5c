/// The frames of the sound chunk: where they lie, and their delivery in whole frames, batch by batch.
extension ChunkedPCMReader {
    /// Where the frames lie, in absolute stream offsets.
    struct SoundData {
        let start: Int64
        /// The end of the samples, or nil when they run to the end of the input.
        let end: Int64?
        /// The end of the chunk with its pad byte, where the next chunk starts.
        let paddedEnd: Int64?
        /// A frame's bytes, or a packet's for a format of several frames a packet (IMA4): the unit delivered.
        let bytesPerPacket: Int
        /// The most packets in one batch: as many as hold `largestBatchFrames` frames, at least one.
        let packetsPerBatch: Int
    }

    /// The frames start `skipping` bytes into the sound chunk's body at `bodyStart`: the format, totals, data
    /// offset and readiness are announced.
    mutating func begin(bodyStart: Int64, size: Int64?, skipping: Int, into output: ParserOutput) {
        let sound = container.sound!
        let bytesPerPacket = Int(sound.format.bytesPerPacket)
        let start = bodyStart + Int64(skipping)
        let end = size.map { max(bodyStart + $0, start) }
        data = SoundData(start: start, end: end, paddedEnd: size.map { bodyStart + ChunkHeader.padded($0) },
                         bytesPerPacket: bytesPerPacket,
                         packetsPerBatch: max(1, Self.largestBatchFrames / Int(sound.format.framesPerPacket)))
        output.announce(.dataFormat, .format(sound.format))
        output.announce(.formatList, .formatList([AudioFormatListItem(format: sound.format,
                                                                      channelLayoutTag: sound.layout.tag)]))
        output.announce(.channelLayout, .channelLayout(sound.layout))
        if let end {
            let byteCount = end - start
            output.announce(.audioDataByteCount, .uint64(UInt64(byteCount)))
            output.announce(.audioDataPacketCount, .uint64(UInt64(byteCount / Int64(bytesPerPacket))))
        }
        isRestarting = false
        // A restarted source's frames are numbered on from the first file's DataOffset, as the stream's offsets go on.
        output.announceReady(dataOffset: start)
    }

    /// True when the sound chunk's samples end at `offset`, so the walk goes on to the next chunk even when no
    /// byte is left to read.
    func isSoundDone(at offset: Int64) -> Bool {
        guard case .sound = state, let end = data?.end else { return false }
        return offset >= end
    }

    /// Delivers the whole frames at the start of `rest` (at `position` in the input, stream offset `offset`);
    /// returns the bytes consumed and, when a frame is cut by the read, the bytes needed to complete it, or past
    /// the samples, the rest of the chunk for the driver to pass over.
    mutating func deliverFrames(_ rest: UnsafeRawBufferPointer, at position: Int, offset: Int64,
                                        input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let data = data!
        if offset < data.start {
            // Joined before the frames (a seek into the header): they start further on.
            return ReadProgress(consumed: Int(min(data.start - offset, Int64(rest.count))), needed: 0)
        }
        if let end = data.end, offset >= end {
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .bytes(max((data.paddedEnd ?? end) - offset, 0)))
        }
        let left = data.end.map { Int(min($0 - offset, Int64(Int.max))) } ?? .max
        let available = min(left, rest.count)
        let misalignment = Int((offset - data.start) % Int64(data.bytesPerPacket))
        if misalignment > 0 {
            // A discontinuity without a frame-aligned offset: the rest of the frame it cut is dropped.
            return drop(min(data.bytesPerPacket - misalignment, left), of: rest, at: offset, input: input, into: output)
        }
        let packets = min(available / data.bytesPerPacket, data.packetsPerBatch)
        if packets > 0 {
            output.constantPackets(at: position, count: packets)
            output.flush()
            return ReadProgress(consumed: packets * data.bytesPerPacket, needed: 0)
        }
        if left < data.bytesPerPacket {
            // The sound chunk ends inside a frame.
            return drop(left, of: rest, at: offset, input: input, into: output)
        }
        // A frame cut by the read waits for its rest; one cut by the end of the input is dropped.
        return drop(data.bytesPerPacket, of: rest, at: offset, input: input, into: output)
    }

    /// Drops the `count` bytes of a partial frame at the start of `rest` once they are all there, so that the
    /// report does not depend on how the input was chunked; at the end of the input, drops what there is.
    private func drop(_ count: Int, of rest: UnsafeRawBufferPointer, at offset: Int64, input: ReaderInput,
                      into output: ParserOutput) -> ReadProgress {
        guard rest.count >= count || input.isEndOfInput else { return ReadProgress(consumed: 0, needed: count) }
        let dropped = min(count, rest.count)
        output.discontinuity(at: offset + Int64(dropped), skippedBytes: Int64(dropped), reason: .resync)
        return ReadProgress(consumed: dropped, needed: 0)
    }
}
