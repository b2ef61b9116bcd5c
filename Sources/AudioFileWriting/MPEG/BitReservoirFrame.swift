import AudioFileStream

/// The Layer III packets a cut begins with only so that the bit reservoir holds what its first frames borrow
/// (ISO/IEC 11172-3 2.4.3.4.3: a frame's main data may begin up to 511 bytes, in MPEG-2 and 2.5 255 bytes,
/// before its own), folded into one frame of silence that ends with the reservoir's last bytes.
///
/// At low bit rates the reservoir reaches back over many frames, more than a LAME tag's 12-bit delay can trim;
/// folded, a cut begins with one frame of silence and the frames the transform's overlap needs (1, or 2 in
/// MPEG-2 and 2.5, whose frames have one granule), whatever the bit rate.
struct BitReservoirFrame {
    /// Packets to fold in.
    let packets: Int
    /// Packets folded in so far.
    private(set) var folded = 0
    /// The last main-data bytes of the packets folded in, at most `capacity`.
    private var reservoir: [UInt8] = []
    private let capacity: Int

    /// Folds the packets of a cut's start that decode only into its `leadingTrim`, but those the overlap needs.
    init(leadingTrim: Int64, framesPerPacket: Int64) {
        let isMPEG1 = framesPerPacket == 1152
        let overlapPackets: Int64 = isMPEG1 ? 1 : 2
        packets = Int(max(leadingTrim / framesPerPacket - overlapPackets, 0))
        capacity = isMPEG1 ? 511 : 255
        reservoir.reserveCapacity(capacity + 1441)
    }

    /// True while packets remain to be folded in.
    var isFolding: Bool { folded < packets }

    /// Folds in the frame `packet`, whose header is `header`.
    mutating func fold(_ packet: UnsafeRawBufferPointer, header: MPEGFrameHeader) {
        folded += 1
        reservoir += packet[min(header.mainDataOffset, packet.count)...]
        if reservoir.count > capacity { reservoir.removeFirst(reservoir.count - capacity) }
    }

    /// The frame of silence in the stream of `streamHeader` whose main data ends with the reservoir: its side
    /// information says no granule has data and its main data begins in itself, so a decoder gives silence for it
    /// and keeps its bytes for the frames after it.
    func frame(streamHeader: MPEGFrameHeader) -> [UInt8]? {
        guard let header = streamHeader.silentFrameHeader(holding: capacity), let length = header.frameLength else {
            return nil
        }
        let word = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: header.word >> $0) }
        return word + [UInt8](repeating: 0, count: length - 4 - reservoir.count) + reservoir
    }
}
