import AudioFileStream
import AudioFileWriting

/// The packets two files of one stream both hold where they meet: a cut or an archive piece begins with the
/// lead-in its decoder needs, which is the end of the piece before it. Joined as they are, that lead-in plays
/// twice; recognised, the later file's copy is dropped and the join is exact.
///
/// The later file's first packets repeat the earlier one's last when they are byte for byte the same (after at
/// most one packet of its own: the frame of silence an MP3 cut folds its bit reservoir into), and, where both
/// state trims, when they last exactly what the earlier file's end trim and the later one's start trim leave
/// out between them. Files that state no trims (ADTS, Layer II) repeat only the packet the cut between them
/// split; one that merely equals the packet before it (digital silence) tells nothing and is kept.
struct JoinOverlap {
    /// What to do with a packet of the later file.
    enum Step {
        /// Write it: it follows the earlier file.
        case write
        /// Hold it until it is known whether it repeats the earlier file.
        case hold
        /// Drop the packets held with it: they repeat the earlier file.
        case dropHeld
        /// Write the packets held (`takeHeld`), it included: they do not repeat the earlier file.
        case writeHeld
    }

    /// The last packets written: as many as a lead-in holds, and the packet a cut split.
    private var tail = LeadInWindow()
    /// The later file's first packets, while undecided.
    private var held: [LeadInWindow.Packet] = []
    private var heldFrames: Int64 = 0
    /// While deciding: the frames the repeated packets last (nil when the files state no trims).
    private var repeatedFrames: Int64?
    private var isDeciding = false

    /// Keeps the tail that lead-ins of `leadIn` repeat; a codec without a lead-in repeats nothing.
    mutating func reset(for leadIn: DecoderLeadIn) {
        tail.reset(for: leadIn == DecoderLeadIn() ? leadIn : DecoderLeadIn(packets: leadIn.packets + 1,
                                                                           frames: leadIn.frames))
    }

    /// A later file begins, whose start trim and the earlier file's end trim together last `trimmedFrames`, when
    /// both state them.
    mutating func beginFile(trimmedFrames: Int64?) {
        isDeciding = tail.count > 0
        repeatedFrames = trimmedFrames
        heldFrames = 0
    }

    /// A packet of the file, in order.
    mutating func take(_ packet: AudioPacket) -> Step {
        guard isDeciding else {
            tail.keep(packet)
            return .write
        }
        held.append(LeadInWindow.Packet(packet))
        heldFrames += packet.frames
        let isComplete = repeatedFrames.map { heldFrames >= $0 } ?? true
        guard isComplete else { return .hold }
        isDeciding = false
        if heldFrames == repeatedFrames ?? heldFrames, repeatsTail() {
            held.removeAll()
            return .dropHeld
        }
        return .writeHeld
    }

    /// The packets held, to write: they do not repeat the earlier file, or its file ended undecided.
    mutating func takeHeld() -> [LeadInWindow.Packet] {
        isDeciding = false
        defer { held.removeAll() }
        for packet in held { packet.withPacket { tail.keep($0) } }
        return held
    }

    /// Whether the packets held, but at most their first, are the tail's last.
    private func repeatsTail() -> Bool {
        let kept = tail.packets
        guard let last = kept.last else { return false }
        guard repeatedFrames != nil else {
            // One packet alone, not a run of equal ones.
            return held.count == 1 && held[0].bytes == last.bytes
                && (kept.count < 2 || kept[kept.count - 2].bytes != last.bytes)
        }
        return (0...min(1, held.count - 1)).contains { own in
            let repeated = held[own...]
            return repeated.count <= kept.count && zip(repeated, kept.suffix(repeated.count)).allSatisfy {
                $0.bytes == $1.bytes && $0.frames == $1.frames
            }
        }
    }
}
