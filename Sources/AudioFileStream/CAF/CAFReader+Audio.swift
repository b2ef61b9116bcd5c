/// The audio of the `data` chunk: where it starts and ends, its packets cut by the description or the packet
/// table, and where they go on after a discontinuity.
extension CAFReader {
    /// The `data` chunk, of a size already checked, starts at `offset`; returns false when the stream failed on it.
    mutating func startAudio(_ header: CAFChunkHeader, of description: CAFAudioDescription, at offset: Int64,
                                     output: ParserOutput) -> Bool {
        let start = offset + Int64(CAFChunkHeader.length + 4)
        let byteCount = header.runsToEnd ? nil : header.size - 4
        if !description.isConstantSize {
            guard let table else {
                output.fail(.notOptimized, at: offset, "the CAF packet table (pakt) follows the audio, so packets "
                    + "cannot be cut as they arrive; move it first, e.g. with afconvert, or give the file to "
                    + "a reader that can seek")
                return false
            }
            guard table.byteCount <= byteCount ?? .max else {
                output.fail(.invalidFile, at: offset, "the CAF packet table holds more bytes than the data chunk")
                return false
            }
        }
        audio = (start, byteCount.map { start + $0 })
        cursor = CAFPacketTable.Cursor()
        state = .audio
        if let byteCount {
            output.announce(.audioDataByteCount, .uint64(UInt64(byteCount)))
            if description.isConstantSize {
                output.announce(.audioDataPacketCount,
                                .uint64(UInt64(byteCount) / UInt64(description.format.bytesPerPacket)))
            }
        }
        output.announceReady(dataOffset: start)
        return true
    }

    /// Cuts the packets from `input.bytes[index]`, inside the audio.
    mutating func readAudio(_ input: ReaderInput, from index: Int, output: ParserOutput)
        -> (consumed: Int, needed: Int) {
        let bytes = UnsafeRawBufferPointer(rebasing: input.bytes[index...])
        let offset = input.offset + Int64(index)
        let (start, end) = audio!
        let format = description!.format
        let audioLeft = end.map { Int(min($0 - offset, Int64(bytes.count))) } ?? bytes.count
        guard end.map({ offset < $0 }) ?? true else {
            state = .chunkHeader
            return (0, 0)
        }
        // The next packet's start and size; none past the table's last packet, whose bytes are skipped.
        let next: (start: Int64, size: Int)?
        if let table {
            next = table.packet(at: cursor).map { (start + cursor.offset, $0.size) }
        } else {
            let size = Int64(format.bytesPerPacket)
            next = ((offset - start + size - 1) / size * size + start, Int(size))
        }
        guard let next, end.map({ next.start + Int64(next.size) <= $0 }) ?? true else {
            skip.add(audioLeft)
            return (audioLeft, 0)
        }
        // Bytes before it (after a discontinuity) are skipped.
        guard next.start <= offset else {
            let skipped = Int(min(next.start - offset, Int64(audioLeft)))
            skip.add(skipped)
            return (skipped, 0)
        }
        guard audioLeft >= next.size else { return (0, next.size) }
        skip.report(resumingAt: offset, to: output)
        guard let table else {
            let count = audioLeft / next.size
            output.constantPackets(at: index, count: count)
            return (count * next.size, 0)
        }
        let frames = table.packet(at: cursor)!.frames
        output.packet(at: index, size: next.size, frames: frames ?? Int(format.framesPerPacket),
                      variableFrames: frames != nil)
        table.advance(&cursor)
        return (next.size, 0)
    }

    /// The stream goes on at `offset` after a discontinuity: inside the audio, at the first packet that starts
    /// there or after; elsewhere, where the chunk structure cannot be found again, nowhere.
    mutating func reposition(to offset: Int64) {
        repositions = false
        guard let (start, end) = audio, offset >= start, end.map({ offset < $0 }) ?? true else {
            // Only a chunk header that these bytes start with is where it was; inside a chunk, they do not follow.
            // Between chunks before the audio, a jump lands on a chunk header: a file read out of order, its
            // packet table before its audio, is given so.
            if case .chunkHeader = state, offset == position || audio == nil { return }
            state = .lost
            return
        }
        state = .audio
        guard let table else { return }
        if start + cursor.offset > offset { cursor = CAFPacketTable.Cursor() }
        while start + cursor.offset < offset, table.packet(at: cursor) != nil { table.advance(&cursor) }
    }
}
