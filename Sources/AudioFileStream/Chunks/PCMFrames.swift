/// The samples a RIFF or IFF container holds: their format and channel layout, and the packets its format chunk
/// says there are (AIFF's COMM does; nil when it does not, or states 0 as a writer to a pipe leaves it).
struct PCMSound: Equatable {
    var format: AudioStreamBasicDescription
    var layout: AudioChannelLayout
    var statedPacketCount: UInt64? = nil

    /// Announces the format, and the length when the format chunk states it: what the file says it holds before
    /// its sound chunk comes, or when none does (a file cut short, or stripped of its samples).
    func announce(into output: ParserOutput) {
        output.announce(.dataFormat, .format(format))
        output.announce(.formatList, .formatList([AudioFormatListItem(format: format, channelLayoutTag: layout.tag)]))
        output.announce(.channelLayout, .channelLayout(layout))
        if let statedPacketCount { output.announce(.audioDataPacketCount, .uint64(statedPacketCount)) }
    }
}

/// The interleaved samples of a RIFF or IFF sound chunk (WAVE's `data`, AIFF's `SSND`), delivered in whole frames,
/// batch by batch.
///
/// Frames are whole: a frame cut by a read waits for the rest (the stream carries only those bytes), one cut by
/// the end of the input or a discontinuity is dropped and reported as skipped, never delivered. After a
/// discontinuity the frames go on at the offset given, realigned on a frame. Batches hold at most
/// `largestBatchFrames` frames, so a large read does not become one huge packet message on the wire nor hold back
/// the first frames' delivery; a batch never splits a frame. A compressed format of constant-size packets (AIFC's
/// IMA4) is delivered the same way, in whole packets instead of frames.
struct PCMFrames: ChunkAudio {
    /// The most frames in one batch: about 0.1 s at 44.1 kHz, 16 KiB of stereo 16-bit samples.
    static var largestBatchFrames: Int { 4096 }

    let start: Int64
    let end: Int64?
    /// A frame's bytes, or a packet's for a format of several frames a packet (IMA4): the unit delivered.
    private let bytesPerPacket: Int
    /// The most packets in one batch: as many as hold `largestBatchFrames` frames, at least one.
    private let packetsPerBatch: Int

    /// The plan for a sound chunk at `offset` of `container`, whose frames follow a `prefixLength`-byte prefix and
    /// end with its `size` bytes (nil: with the input).
    /// - Throws: `.notOptimized` when `sound` is nil: the chunk comes before the one stating the format.
    static func plan(after sound: PCMSound?, prefixLength: Int, size: Int64?, in container: String, at offset: Int64)
        throws(AudioFileStreamFailure) -> ChunkPlan
    {
        guard sound != nil else {
            throw AudioFileStreamFailure(.notOptimized, at: offset, "the \(container) sound chunk at \(offset) comes "
                + "before the chunk stating its format, so its frames cannot be read as they stream; rewrite the "
                + "file with the format first (ffmpeg -i IN -c copy OUT)")
        }
        return .audio(prefixLength: prefixLength, size: size)
    }

    /// The frames of `sound` start `skipping` bytes into the sound chunk's body at `bodyStart`, of `size` bytes
    /// (nil: up to the end of the input): the format, totals, data offset and readiness are announced. A packet
    /// count the format chunk states is the length, as mutagen, ffprobe and AVAsset read it, whatever the sound
    /// chunk holds.
    init(_ sound: PCMSound, bodyStart: Int64, size: Int64?, skipping: Int, into output: ParserOutput) {
        bytesPerPacket = Int(sound.format.bytesPerPacket)
        start = bodyStart + Int64(skipping)
        end = size.map { [start] in max(bodyStart + $0, start) }
        packetsPerBatch = max(1, Self.largestBatchFrames / Int(sound.format.framesPerPacket))
        sound.announce(into: output)
        if let end {
            let byteCount = end - start
            output.announce(.audioDataByteCount, .uint64(UInt64(byteCount)))
            if sound.statedPacketCount == nil {
                output.announce(.audioDataPacketCount, .uint64(UInt64(byteCount / Int64(bytesPerPacket))))
            }
        }
        // A restarted source's frames are numbered on from the first file's DataOffset, as the stream's offsets go on.
        output.announceReady(dataOffset: start)
    }

    mutating func deliver(_ rest: UnsafeRawBufferPointer, at position: Int, offset: Int64, input: ReaderInput,
                          skipped: inout SkipRun, into output: ParserOutput) -> ReadProgress {
        let left = end.map { Int(min($0 - offset, Int64(Int.max))) } ?? .max
        let available = min(left, rest.count)
        let misalignment = Int((offset - start) % Int64(bytesPerPacket))
        if misalignment > 0 {
            // A discontinuity without a frame-aligned offset: the rest of the frame it cut is dropped.
            return drop(min(bytesPerPacket - misalignment, left), of: rest, at: offset, input: input, into: output)
        }
        let packets = min(available / bytesPerPacket, packetsPerBatch)
        if packets > 0 {
            output.constantPackets(at: position, count: packets)
            output.flush()
            return ReadProgress(consumed: packets * bytesPerPacket, needed: 0)
        }
        if left < bytesPerPacket {
            // The sound chunk ends inside a frame.
            return drop(left, of: rest, at: offset, input: input, into: output)
        }
        // A frame cut by the read waits for its rest; one cut by the end of the input is dropped.
        return drop(bytesPerPacket, of: rest, at: offset, input: input, into: output)
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
