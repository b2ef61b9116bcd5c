/// Whole packets in one stretch of the stream. The memory is the parser's or the caller's and is valid only
/// during the callback.
///
/// Read the packets through `packets`, which gives each one's bytes, frames and offset alike for packets of
/// constant size (PCM, IMA4) and of varying size; `descriptions` is Core Audio's view of the same.
public struct PacketBatch {
    /// The bytes from the first packet's start to the last packet's end; framing between packets (such as ADTS
    /// headers) lies outside every description.
    public let bytes: UnsafeRawBufferPointer
    /// The format of these packets: the DataFormat announced last.
    public let format: AudioStreamBasicDescription
    /// One description per packet, offsets relative to `bytes`; nil only for constant-size packets (PCM).
    public let descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?
    /// The absolute stream offset of `bytes[0]`.
    public let streamOffset: Int64
    /// The index of the first packet in the batch, counted from the first packet of the stream.
    public let firstPacketIndex: Int64
    /// True when these packets do not follow the previous batch (input discontinuity, skipped junk or a dropped frame).
    public let followsDiscontinuity: Bool
    /// True for a batch of one packet that its container spread over the stream in pieces (an Ogg packet
    /// continued across pages): `bytes` are the packet assembled, a copy, and `streamOffset` is where its first
    /// piece starts; the bytes at that offset hold only that piece.
    public let isAssembled: Bool

    /// A batch over `bytes` as the parser makes them, or as a copy of one rebuilt by its receiver.
    public init(bytes: UnsafeRawBufferPointer, format: AudioStreamBasicDescription,
                descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?, streamOffset: Int64,
                firstPacketIndex: Int64, followsDiscontinuity: Bool, isAssembled: Bool) {
        self.bytes = bytes
        self.format = format
        self.descriptions = descriptions
        self.streamOffset = streamOffset
        self.firstPacketIndex = firstPacketIndex
        self.followsDiscontinuity = followsDiscontinuity
        self.isAssembled = isAssembled
    }

    /// The batch's packets, in order.
    public var packets: AudioPackets { AudioPackets(self) }

    /// The PCM frames the batch holds.
    public var frameCount: Int64 { packets.frames(in: packets.indices) }

    /// Calls `body` with a batch of this one's packets in `range` alone, over the same bytes.
    public func withPackets<Result>(_ range: Range<Int>, _ body: (PacketBatch) throws -> Result) rethrows -> Result {
        let span = packets.span(range)
        let start = Int(span.offset - streamOffset)
        let bytes = UnsafeRawBufferPointer(rebasing: bytes[start..<start + span.bytes.count])
        let first = firstPacketIndex + Int64(range.lowerBound)
        let follows = followsDiscontinuity && range.lowerBound == 0
        guard let descriptions else {
            return try body(PacketBatch(bytes: bytes, format: format, descriptions: nil, streamOffset: span.offset,
                                        firstPacketIndex: first, followsDiscontinuity: follows,
                                        isAssembled: isAssembled))
        }
        var shifted = Array(descriptions[range])
        for index in shifted.indices { shifted[index].startOffset -= Int64(start) }
        return try shifted.withUnsafeBufferPointer { shifted in
            try body(PacketBatch(bytes: bytes, format: format, descriptions: shifted, streamOffset: span.offset,
                                 firstPacketIndex: first, followsDiscontinuity: follows, isAssembled: isAssembled))
        }
    }

    /// Calls `body` with a batch of the one packet `packet` of `format`, the stream's packet number `index`: how
    /// a single packet kept or made apart from its batch is handed to a decoder.
    public static func withPacket<Result>(_ packet: AudioPacket, format: AudioStreamBasicDescription, index: Int64,
                                          _ body: (PacketBatch) throws -> Result) rethrows -> Result {
        let description = AudioStreamPacketDescription(
            startOffset: 0, variableFramesInPacket: format.framesPerPacket == 0 ? UInt32(clamping: packet.frames) : 0,
            dataByteSize: UInt32(clamping: packet.bytes.count))
        return try withUnsafePointer(to: description) { description in
            try body(PacketBatch(bytes: packet.bytes, format: format,
                                 descriptions: UnsafeBufferPointer(start: description, count: 1),
                                 streamOffset: packet.offset, firstPacketIndex: index, followsDiscontinuity: false,
                                 isAssembled: false))
        }
    }
}
