/// The audio of a CAF `data` chunk, past its edit count: its packets cut by the description (constant-size
/// formats, as batches without descriptions) or by the packet table, and where they go on after a cut.
struct CAFPackets: ChunkAudio {
    let start: Int64
    let end: Int64?
    let format: AudioStreamBasicDescription
    /// The packet table of a format whose packets vary; nil for constant-size packets.
    let table: CAFPacketTable?
    /// The next packet of the table.
    private var cursor = CAFPacketTable.Cursor()

    init(start: Int64, end: Int64?, format: AudioStreamBasicDescription, table: CAFPacketTable?) {
        (self.start, self.end, self.format, self.table) = (start, end, format, table)
    }

    mutating func deliver(_ rest: UnsafeRawBufferPointer, at position: Int, offset: Int64, input: ReaderInput,
                          skipped: inout SkipRun, into output: ParserOutput) -> ReadProgress {
        let audioLeft = end.map { Int(min($0 - offset, Int64(rest.count))) } ?? rest.count
        // The next packet's start and size; none past the table's last packet, whose bytes are skipped.
        let next: (start: Int64, size: Int)?
        if let table {
            place(at: offset, in: table)
            next = table.packet(at: cursor).map { (start + cursor.offset, $0.size) }
        } else {
            let size = Int64(format.bytesPerPacket)
            next = ((offset - start + size - 1) / size * size + start, Int(size))
        }
        guard let next, end.map({ next.start + Int64(next.size) <= $0 }) ?? true else {
            skipped.add(audioLeft)
            return ReadProgress(consumed: audioLeft, needed: 0)
        }
        // Bytes before it (after a discontinuity) are skipped.
        guard next.start <= offset else {
            let count = Int(min(next.start - offset, Int64(audioLeft)))
            skipped.add(count)
            return ReadProgress(consumed: count, needed: 0)
        }
        guard audioLeft >= next.size else { return ReadProgress(consumed: 0, needed: next.size) }
        skipped.report(resumingAt: offset, to: output)
        guard let table else {
            let count = audioLeft / next.size
            output.constantPackets(at: position, count: count)
            return ReadProgress(consumed: count * next.size, needed: 0)
        }
        let frames = table.packet(at: cursor)!.frames
        output.packet(at: position, size: next.size, frames: frames ?? Int(format.framesPerPacket),
                      variableFrames: frames != nil)
        table.advance(&cursor)
        return ReadProgress(consumed: next.size, needed: 0)
    }

    /// Moves the cursor to the first packet that starts at `offset` or after: where the bytes go on after a cut.
    private mutating func place(at offset: Int64, in table: CAFPacketTable) {
        if start + cursor.offset > offset { cursor = CAFPacketTable.Cursor() }
        while start + cursor.offset < offset, table.packet(at: cursor) != nil { table.advance(&cursor) }
    }
}
