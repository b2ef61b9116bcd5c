/// One packet: its bytes, the PCM frames its decoder gives, and where it lies in the stream. Its bytes are
/// valid as long as its batch's.
public struct AudioPacket {
    public let bytes: UnsafeRawBufferPointer
    public let frames: Int64
    /// The absolute stream offset of its first byte (of its first piece, for a packet assembled from pieces).
    public let offset: Int64

    public init(bytes: UnsafeRawBufferPointer, frames: Int64, offset: Int64) {
        self.bytes = bytes
        self.frames = frames
        self.offset = offset
    }
}

/// A batch's packets, one view for packets of constant size (PCM frames, IMA4 blocks), which have no
/// descriptions, and packets of varying size or frame count.
public struct AudioPackets: RandomAccessCollection {
    private let batch: PacketBatch
    /// The size of each packet when they are of constant size; 0 when they have descriptions.
    private let constantSize: Int
    public let count: Int

    init(_ batch: PacketBatch) {
        self.batch = batch
        if let descriptions = batch.descriptions {
            constantSize = 0
            count = descriptions.count
        } else {
            constantSize = Int(batch.format.bytesPerPacket)
            count = constantSize > 0 ? batch.bytes.count / constantSize : 0
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// Whether the packets have one size and one frame count: runs of them may be handled as one (`span`).
    public var areConstant: Bool { constantSize > 0 }

    public subscript(index: Int) -> AudioPacket {
        guard let descriptions = batch.descriptions else {
            let start = index * constantSize
            return AudioPacket(bytes: UnsafeRawBufferPointer(rebasing: batch.bytes[start..<start + constantSize]),
                               frames: Int64(batch.format.framesPerPacket),
                               offset: batch.streamOffset + Int64(start))
        }
        let description = descriptions[index]
        let start = Int(description.startOffset)
        return AudioPacket(
            bytes: UnsafeRawBufferPointer(rebasing: batch.bytes[start..<start + Int(description.dataByteSize)]),
            frames: description.variableFramesInPacket > 0
                ? Int64(description.variableFramesInPacket) : Int64(batch.format.framesPerPacket),
            offset: batch.streamOffset + Int64(start))
    }

    /// The frames of the packets in `range`.
    public func frames(in range: Range<Int>) -> Int64 {
        // A format with a frame count gives it to every packet.
        guard batch.format.framesPerPacket == 0 else { return Int64(range.count) * Int64(batch.format.framesPerPacket) }
        return range.reduce(0) { $0 + self[$1].frames }
    }

    /// The packets in `range` as one: the bytes from the first one's start to the last one's end (with any
    /// framing between them), their frames summed, at the first one's offset. `range` is not empty.
    public func span(_ range: Range<Int>) -> AudioPacket {
        precondition(!range.isEmpty, "a span holds at least one packet")
        let start = self[range.lowerBound].offset
        let last = self[range.upperBound - 1]
        let lower = Int(start - batch.streamOffset)
        let upper = Int(last.offset - batch.streamOffset) + last.bytes.count
        return AudioPacket(bytes: UnsafeRawBufferPointer(rebasing: batch.bytes[lower..<upper]),
                           frames: frames(in: range), offset: start)
    }
}
