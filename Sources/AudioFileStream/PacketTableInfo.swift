/// How many decoded frames are real audio: `primingFrames` at the start and `remainderFrames` at the end are
/// encoder padding to trim (Core Audio's AudioFilePacketTableInfo).
public struct PacketTableInfo: Equatable, Sendable {
    public var validFrames: Int64
    public var primingFrames: Int32
    public var remainderFrames: Int32

    public init(validFrames: Int64, primingFrames: Int32, remainderFrames: Int32) {
        self.validFrames = validFrames
        self.primingFrames = primingFrames
        self.remainderFrames = remainderFrames
    }
}
