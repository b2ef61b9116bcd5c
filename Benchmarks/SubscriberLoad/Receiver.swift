/// A subscriber's socket as the load run sees it: bytes arriving, then the end.
protocol Receiver: AnyObject {
    var descriptor: Int32 { get }
    var tally: ReceiverTally { get }
    /// Whether the times it is given are when the kernel took the bytes in (`ReceiveTimes`, which it enabled on
    /// its socket) rather than when the run read them.
    var isStampedByKernel: Bool { get }
    /// Bytes read from the socket at `time` (monotonic nanoseconds).
    func take(_ bytes: UnsafeRawBufferPointer, at time: UInt64)
    /// The peer closed the connection (or reset it) at `time`.
    func closed(at time: UInt64)
}

extension Receiver {
    var isStampedByKernel: Bool { false }
}

/// What one subscriber saw besides its frames: what the relay said about drops, and what went wrong.
struct ReceiverTally {
    /// Overflow discontinuity events (audiostreamd tells a subscriber when it dropped packets for it).
    var overflowEvents = 0
    /// Packets those events said were dropped.
    var droppedPackets = 0
    /// Deliveries (packets, or reads of a byte stream) whose bytes are not the fed bytes at their offset.
    var mismatches = 0
    /// Why the relay refused the subscriber or what broke its stream, if anything did; it reads no further.
    var refusal: String?
    /// When the connection ended, if it has.
    var closedAt: UInt64?
}
