/// Where one packet lies in a packets batch, as Core Audio's AudioStreamPacketDescription.
public struct AudioStreamPacketDescription: Equatable, Sendable {
    /// Offset of the packet's first byte from the start of the batch's bytes.
    public var startOffset: Int64
    /// PCM frames in this packet when the format's frames per packet is 0, otherwise 0.
    public var variableFramesInPacket: UInt32
    /// The packet's size in bytes.
    public var dataByteSize: UInt32

    public init(startOffset: Int64, variableFramesInPacket: UInt32, dataByteSize: UInt32) {
        self.startOffset = startOffset
        self.variableFramesInPacket = variableFramesInPacket
        self.dataByteSize = dataByteSize
    }
}
