import AudioFileWriting

/// The last packets of a stream, as many as its decoder's lead-in asks for, kept so that a new piece can begin
/// with them. Their buffers are reused, so keeping a packet allocates nothing once the window is full.
struct LeadInWindow {
    struct Packet {
        var bytes: [UInt8] = []
        var frames: Int64 = 0
    }

    private var leadIn = DecoderLeadIn()
    /// A ring: `count` packets from `first`.
    private var slots: [Packet] = []
    private var first = 0
    private(set) var count = 0
    private var frames: Int64 = 0

    /// Keeps what `leadIn` needs from now on, and forgets the packets kept so far.
    mutating func reset(for leadIn: DecoderLeadIn) {
        self.leadIn = leadIn
        clear()
    }

    /// Forgets the packets kept: those that follow do not continue them.
    mutating func clear() {
        first = 0
        count = 0
        frames = 0
    }

    /// Keeps `packet`, and lets go of the oldest packets the lead-in no longer needs.
    mutating func keep(_ packet: UnsafeRawBufferPointer, frames packetFrames: Int64) {
        guard leadIn.packets > 0 || leadIn.frames > 0 else { return }
        if count == slots.count { slots.insert(Packet(), at: first) ; if count > 0 { first += 1 } }
        let index = (first + count) % slots.count
        slots[index].bytes.removeAll(keepingCapacity: true)
        slots[index].bytes.append(contentsOf: packet)
        slots[index].frames = packetFrames
        count += 1
        frames += packetFrames
        while count > 1, count - 1 >= leadIn.packets, frames - slots[first].frames >= leadIn.frames {
            frames -= slots[first].frames
            first = (first + 1) % slots.count
            count -= 1
        }
    }

    /// The frames a decoder gives for the packets kept: all theirs, but the first packet's when the decoder gives
    /// nothing for it (Vorbis).
    var decodedFrames: Int64 {
        guard count > 0 else { return 0 }
        return leadIn.firstPacketDecodesToNothing ? frames - slots[first].frames : frames
    }

    /// The packets kept, oldest first, as an array.
    var packets: [Packet] { (0..<count).map { slots[(first + $0) % slots.count] } }

    /// The packets kept, oldest first.
    func forEach(_ body: (Packet) throws -> Void) rethrows {
        for offset in 0..<count { try body(slots[(first + offset) % slots.count]) }
    }
}
