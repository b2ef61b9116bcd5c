import AudioFileStream
import AudioFileWriting
import AudioRecording

/// Cuts one segment of a composition out of its file's parser events: the packets from the first that holds the
/// segment's start to the one that holds its end, after as many earlier ones as the codec's decoder needs to
/// reach the start right (its lead-in), and a PacketTableInfo saying how many frames of them to drop at each end.
///
/// Positions count the file's frames from its first packet. `from` and `to` are seconds of the file's audio,
/// after its own priming, so the segment's priming counts the lead-in, the frames of the first packet before
/// `from` and the file's own priming.
struct SegmentRange {
    /// What goes on to subscribers, the decoder and the recording, in order.
    enum Output {
        /// The segment's trims: first before its first packet (`startsSegment`), then again when they change.
        case table(PacketTableInfo, startsSegment: Bool)
        case packets(PacketBatch)
    }

    let item: PlaylistItem
    /// The file's own PacketTableInfo, when it states one.
    private var fileTable: PacketTableInfo?
    /// Frames of the file's packets so far.
    private var position: Int64 = 0
    /// Packets before the start, kept for the decoder's lead-in, from the first of them.
    private var leadIn: LeadInWindow?
    /// The table stated for the segment, once its first packet went out.
    private var stated: PacketTableInfo?
    /// Where the segment starts in the file, and where it ends when known.
    private var start: Int64 = 0
    private var end: Int64?
    /// The segment's last packet went out: the file's others are left out.
    private(set) var isComplete = false

    init(item: PlaylistItem) {
        self.item = item
    }

    /// The file states its trims. Before the first packet they place the segment; after it (an Ogg stream's end
    /// trim, known at its last page) a segment that ends where the file does gets its table again, corrected.
    mutating func note(fileTable table: PacketTableInfo) -> PacketTableInfo? {
        fileTable = table
        guard let stated, item.to == nil, let fileEnd, !isComplete else { return nil }
        let updated = PacketTableInfo(validFrames: fileEnd - start, primingFrames: stated.primingFrames,
                                      remainderFrames: table.remainderFrames)
        end = fileEnd
        guard updated != stated else { return nil }
        self.stated = updated
        return updated
    }

    /// Passes on the batch's packets that belong to the segment, with the segment's table before the first and
    /// the lead-in's packets (a batch each) before that.
    mutating func select(_ batch: PacketBatch, output: (Output) -> Void) {
        var runStart = 0
        let packets = batch.packets
        for index in packets.indices {
            let packetFrames = packets[index].frames
            let packetStart = position
            position += packetFrames
            if isComplete {
                Self.give(batch, runStart..<index, output: output)
                return
            }
            if stated == nil {
                let start = Self.frame(of: item.from, in: batch.format) + Int64(fileTable?.primingFrames ?? 0)
                if let fileEnd, start >= fileEnd {
                    // The file's audio ends before the segment starts: nothing of it is played.
                    isComplete = true
                    return
                }
                guard position > start else {
                    if leadIn == nil { leadIn = LeadInWindow(for: DecoderLeadIn.of(batch.format)) }
                    leadIn?.keep(packets[index])
                    runStart = index + 1
                    continue
                }
                begin(at: start, packetStart: packetStart, packetIndex: batch.firstPacketIndex + Int64(index),
                      format: batch.format, output: output)
            }
            guard let end, position >= end else { continue }
            // The packet that holds the end: a remainder not known before (packets of varying frames) is stated
            // before it, so subscribers know it before they decode it.
            if let stated, Int64(stated.remainderFrames) != position - end {
                Self.give(batch, runStart..<index, output: output)
                runStart = index
                let corrected = PacketTableInfo(validFrames: stated.validFrames, primingFrames: stated.primingFrames,
                                                remainderFrames: Int32(clamping: position - end))
                self.stated = corrected
                output(.table(corrected, startsSegment: false))
            }
            isComplete = true
        }
        Self.give(batch, runStart..<packets.count, output: output)
    }

    /// Where the file's audio ends, when it says.
    private var fileEnd: Int64? {
        fileTable.flatMap { $0.validFrames > 0 ? Int64($0.primingFrames) + $0.validFrames : nil }
    }

    /// States the table of a segment that starts at `start`, in the packet at `packetStart` (packet number
    /// `packetIndex`), and gives the lead-in's packets, a batch each.
    private mutating func begin(at start: Int64, packetStart: Int64, packetIndex: Int64,
                                format: AudioStreamBasicDescription, output: (Output) -> Void) {
        let decodedFrom = packetStart - (leadIn?.decodedFrames ?? 0)
        var end = item.to.map { Self.frame(of: $0, in: format) + Int64(fileTable?.primingFrames ?? 0) }
        if let fileEnd, end.map({ $0 >= fileEnd }) ?? true { end = fileEnd }
        (self.start, self.end) = (start, end)
        let framesPerPacket = Int64(format.framesPerPacket)
        let remainder: Int64 = if let end, end == fileEnd {
            Int64(fileTable?.remainderFrames ?? 0)
        } else if let end, framesPerPacket > 0 {
            (framesPerPacket - end % framesPerPacket) % framesPerPacket
        } else {
            0
        }
        let table = PacketTableInfo(validFrames: end.map { $0 - start } ?? 0,
                                    primingFrames: Int32(clamping: start - decodedFrom),
                                    remainderFrames: Int32(clamping: remainder))
        stated = table
        output(.table(table, startsSegment: true))
        // The lead-in's packets are the ones right before the segment's first.
        var index = packetIndex - Int64(leadIn?.count ?? 0)
        leadIn?.forEach { packet in
            packet.withPacket { PacketBatch.withPacket($0, format: format, index: index) { output(.packets($0)) } }
            index += 1
        }
        leadIn = nil
    }

    /// Gives the batch's packets in `range`, as a batch of their own unless they are all of it.
    private static func give(_ batch: PacketBatch, _ range: Range<Int>, output: (Output) -> Void) {
        guard !range.isEmpty else { return }
        guard range.count < batch.packets.count else { return output(.packets(batch)) }
        batch.withPackets(range) { output(.packets($0)) }
    }

    /// The frame at `seconds` into audio of `format`, the nearest.
    static func frame(of seconds: Double, in format: AudioStreamBasicDescription) -> Int64 {
        Int64((seconds * format.sampleRate).rounded())
    }
}
