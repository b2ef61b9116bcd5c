extension MP4Reader {
    /// Gives the packets of the media data from `start` in the input on, up to the box's `end` (a stream
    /// offset, or nil for the end of the stream), walking the cursor; bytes between samples are passed over.
    /// Returns how far it got: when the box ends inside the input, `state` is a box header again and the
    /// caller goes on from `consumed`.
    mutating func readMedia(_ input: ReaderInput, from start: Int, end: Int64?, output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        let inputEnd = input.offset + Int64(bytes.count)
        var position = input.offset + Int64(start)
        while !cursor.isAtEnd {
            let sampleEnd = cursor.offset + Int64(cursor.size)
            if let end, sampleEnd > end {
                // A sample in a later box, or one that runs out of this one.
                if cursor.offset >= end { break }
                return fail(.invalidFile, at: cursor.offset, "sample \(cursor.sample) at offset \(cursor.offset) runs past the end of "
                    + "its media data box at \(end)", input, output)
            }
            guard cursor.offset >= position else {
                return fail(.invalidFile, at: cursor.offset, "sample \(cursor.sample) at offset \(cursor.offset) lies outside the media "
                    + "data, before offset \(position)", input, output)
            }
            guard sampleEnd <= inputEnd else {
                if input.isEndOfInput {
                    // The input ends inside the sample: its bytes there are dropped, and the sample with them (the
                    // end may be given again, and a seek goes on from a sample of its own).
                    if cursor.offset < inputEnd {
                        output.discontinuity(at: inputEnd, skippedBytes: inputEnd - cursor.offset, reason: .resync)
                        cursor.advance(over: table)
                    }
                    return ReadProgress(consumed: bytes.count, needed: 0)
                }
                // What comes before the sample is the container's; the sample is asked for whole.
                let consumed = min(cursor.offset, inputEnd) - input.offset
                return ReadProgress(consumed: Int(consumed), needed: cursor.offset < inputEnd ? cursor.size : 0)
            }
            if let next = laterSegments.first, cursor.sample >= next.firstSample { startSegment(output: output) }
            if cursor.size > 0 {
                output.announceReady(dataOffset: cursor.offset)
                output.packet(at: Int(cursor.offset - input.offset), size: cursor.size,
                              frames: constantFrames != 0 ? constantFrames : cursor.duration,
                              variableFrames: constantFrames == 0)
            }
            position = sampleEnd
            cursor.advance(over: table)
        }
        // The box's other bytes are other tracks' samples or padding.
        guard let end, end <= inputEnd else { return ReadProgress(consumed: bytes.count, needed: 0) }
        state = .boxHeader
        return ReadProgress(consumed: Int(end - input.offset), needed: 0)
    }
}
