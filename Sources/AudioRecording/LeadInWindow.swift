import AudioFileStream
import AudioFileWriting

/// The last packets of a stream, as many as its decoder's lead-in asks for, kept so that what starts at the next
/// packet (a recording's piece, a cut, a playlist item's segment) can begin with them. Their buffers are reused,
/// so keeping a packet allocates nothing once the window is full.
package struct LeadInWindow {
    /// A packet's own copy.
    package struct Packet {
        package var bytes: [UInt8] = []
        package var frames: Int64 = 0
        /// Its stream offset.
        package var offset: Int64 = 0

        init() {}

        /// A copy of `packet`.
        package init(_ packet: AudioPacket) {
            bytes = Array(packet.bytes)
            frames = packet.frames
            offset = packet.offset
        }

        /// Calls `body` with the packet, whose bytes are valid during the call.
        package func withPacket<Result>(_ body: (AudioPacket) throws -> Result) rethrows -> Result {
            try bytes.withUnsafeBytes { try body(AudioPacket(bytes: $0, frames: frames, offset: offset)) }
        }
    }

    private var leadIn = DecoderLeadIn()
    /// A ring: `count` packets from `first`.
    private var slots: [Packet] = []
    private var first = 0
    package private(set) var count = 0
    private var frames: Int64 = 0

    /// A window for `leadIn`; by default one that keeps nothing until `reset(for:)`.
    package init(for leadIn: DecoderLeadIn = DecoderLeadIn()) {
        self.leadIn = leadIn
    }

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
    package mutating func keep(_ packet: AudioPacket) {
        guard leadIn.packets > 0 || leadIn.frames > 0 else { return }
        if count == slots.count { slots.insert(Packet(), at: first) ; if count > 0 { first += 1 } }
        let index = (first + count) % slots.count
        slots[index].bytes.removeAll(keepingCapacity: true)
        slots[index].bytes.append(contentsOf: packet.bytes)
        slots[index].frames = packet.frames
        slots[index].offset = packet.offset
        count += 1
        frames += packet.frames
        while count > 1, count - 1 >= leadIn.packets, frames - slots[first].frames >= leadIn.frames {
            frames -= slots[first].frames
            first = (first + 1) % slots.count
            count -= 1
        }
    }

    /// The frames a decoder gives for the packets kept: all theirs, but the first packet's when the decoder gives
    /// nothing for it (Vorbis).
    package var decodedFrames: Int64 {
        guard count > 0 else { return 0 }
        return leadIn.firstPacketDecodesToNothing ? frames - slots[first].frames : frames
    }

    /// The packets kept, oldest first, as an array.
    var packets: [Packet] { (0..<count).map { slots[(first + $0) % slots.count] } }

    /// The packets kept, oldest first.
    package func forEach(_ body: (Packet) throws -> Void) rethrows {
        for offset in 0..<count { try body(slots[(first + offset) % slots.count]) }
    }
}
