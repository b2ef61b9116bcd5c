/// Where the walk goes on after a cut, as the container's `ChunkResync` says.
extension ChunkWalker {
    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        if case .failed = state { return }
        repositions = true
        switch Container.resync {
        case .restart:
            // Between chunks before the sound chunk, a jump lands on a chunk header, as CAF's does: a file given out
            // of order, its format chunk first.
            if audio == nil, !isRestarting, case .chunkHeader = state, offset == position { return }
            guard audio != nil, !isRestarting else {
                state = .failed
                return output.fail(.discontinuityCantRecover, at: offset, "the \(Container.name) header is cut at "
                    + "\(offset), before its sound chunk: the chunks after the cut cannot be found")
            }
            state = .resuming
        case .reposition:
            skipped.report(resumingAt: offset, to: output)
            // Cut inside a chunk passed over: the chunks after it cannot be found.
            if offset < position { state = .lost }
        }
    }

    /// The bytes after a discontinuity go on at `offset`: with `ChunkResync.reposition`, inside the audio at the
    /// first packet that starts there or after, or between chunks before the audio at a chunk header; elsewhere
    /// nowhere. With `.restart`, before the sound chunk, at the chunk header the caller jumps to (a file read out
    /// of order, its format chunk before its samples); after it, `resume` decides from the bytes.
    mutating func place(at offset: Int64) {
        repositions = false
        guard Container.resync == .reposition else { return }
        guard let (start, end) = audioBounds, offset >= start, end.map({ offset < $0 }) ?? true else {
            // Only a chunk header that these bytes start with is where it was; inside a chunk, they do not follow.
            // Between chunks before the audio, a jump lands on a chunk header: a file read out of order, its
            // packet table before its audio, is given so.
            if case .chunkHeader = state, offset == position || audio == nil { return }
            state = .lost
            return
        }
        // The audio finds its next packet from the offset it is given.
        state = .audio
    }

    /// After a discontinuity (`ChunkResync.restart`): a new file's header (a restarted source), or more audio.
    mutating func resume(_ rest: UnsafeRawBufferPointer, _ input: ReaderInput) -> ReadProgress {
        let length = Container.layout.fileHeaderLength
        guard rest.count >= length || input.isEndOfInput else { return ReadProgress(consumed: 0, needed: length) }
        if Container.startsFile(rest) {
            container = Container(limits: limits)
            isRestarting = true
            state = .fileHeader
        } else {
            // Audio at the offset the caller states; the audio realigns on a packet.
            state = .audio
        }
        return ReadProgress(consumed: 0, needed: 0)
    }

    /// The input ends `count` bytes inside a structure or a packet.
    mutating func loseAtEnd(_ count: Int) {
        // `.restart` lets them stream past unreported.
        guard Container.resync == .reposition else { return }
        skipped.add(count)
        if case .audio = state {} else { state = .lost }
    }
}
