/// The logical stream an `OggReader` follows: its codec, and the frames its packets hold, checked against its
/// pages' granule positions. A reference, held by the reader's `OggFollowedStream` through the stream's phases,
/// so that every packet mutates it in place: a value in an enum's payload is copied out and back each time.
final class OggLogicalStream {
    let serial: UInt32
    // The three below are touched for every packet or page, so the runtime's exclusivity check is skipped (it cost
    // Ogg parsing 0.8 % of its instructions): only the one reader that holds the stream reaches them, never
    // re-entrantly.
    @exclusivity(unchecked) var codec: any OggCodec
    /// The page sequence number the next page should carry; nil when unknown after a discontinuity.
    @exclusivity(unchecked) var nextSequence: UInt32?
    /// Frames of the audio packets so far.
    @exclusivity(unchecked) var frames: Int64 = 0
    /// A granule position less the frames counted up to it: fixed by the first page that has one; 0 for a
    /// stream read from its start, below 0 when its first position trims the start; nil before that page.
    var granuleOffset: Int64?
    /// Frames dropped at the start: the codec's priming, and any the first granule position says to trim.
    var primingFrames = 0

    init(serial: UInt32, codec: any OggCodec, sequence: UInt32) {
        self.serial = serial
        self.codec = codec
        nextSequence = sequence &+ 1
    }

    /// The frames of an audio packet, counted; nil when it is not a valid one.
    func countFrames(ofAudio packet: UnsafeRawBufferPointer) -> Int? {
        let packetFrames = codec.frames(ofAudio: packet)
        frames += Int64(packetFrames ?? 0)
        return packetFrames
    }

    /// The pages go on after a gap: the codec starts afresh and the frame count is placed again by the next
    /// granule position.
    func resetForDiscontinuity() {
        codec.resetForDiscontinuity()
        granuleOffset = nil
        nextSequence = nil
    }

    /// Checks the granule position of a page after whose packets `frames` were counted, and returns the
    /// PacketTableInfo it settles, if any: the first position fixes the start (priming), the last page's the
    /// end (remainder). A position that disagrees with the count is reported and the count kept.
    func check(granulePosition: Int64, isLast: Bool, at offset: Int64,
                        into output: ParserOutput) -> PacketTableInfo? {
        guard granulePosition >= 0 else { return nil }
        guard let known = granuleOffset else {
            // A first position below the count trims the start, except on a last page, which trims the end.
            let start = isLast ? max(granulePosition - frames, 0) : granulePosition - frames
            granuleOffset = start
            primingFrames = Int(max(Int64(codec.primingFrames) - start, 0))
            if isLast { return end(at: granulePosition) }
            return primingFrames > 0 ? PacketTableInfo(validFrames: 0, primingFrames: Int32(primingFrames),
                                                       remainderFrames: 0) : nil
        }
        let expected = frames + known
        if isLast && granulePosition <= expected { return end(at: granulePosition) }
        if granulePosition != expected {
            output.warning(.positionMismatch, at: offset, "Ogg page at \(offset) says granule position "
                + "\(granulePosition), its packets \(expected): the packets' count is kept")
            granuleOffset = granulePosition - frames
        }
        return nil
    }

    /// The PacketTableInfo of a stream whose last granule position is `granulePosition`.
    private func end(at granulePosition: Int64) -> PacketTableInfo {
        let remainder = max(frames + (granuleOffset ?? 0) - granulePosition, 0)
        return PacketTableInfo(validFrames: max(frames - Int64(primingFrames) - remainder, 0),
                               primingFrames: Int32(primingFrames), remainderFrames: Int32(clamping: remainder))
    }
}
