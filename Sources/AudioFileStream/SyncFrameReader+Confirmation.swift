/// Whether what follows a frame confirms it: the next header, a tag, the end of the input, or the chain of
/// headers a resync asks for.
extension SyncFrameReader {
    /// Whether a tag at `position` stands where tags do, `bounded` saying that something known ends right
    /// before it. An ID3v1 tag, `TAG` and bytes of anything, is as often text in other data: unbounded, it is
    /// believed only where it ends the input, as taggers write it. `.needMore` counts from `start`.
    func placement(of tag: TagReader, at position: Int, bounded: Bool, from start: Int,
                           in input: ReaderInput) -> Confirmation {
        guard tag.isUnchecked, !bounded else { return .confirmed }
        let end = position + tag.remainingBytes
        guard end >= input.bytes.count else { return .refuted }
        guard input.isEndOfInput else { return .needMore(end + 1 - start) }
        return end == input.bytes.count ? .confirmed : .refuted
    }

    /// Whether a tag at `position` follows the frame at `start`, which it then confirms: any tag when the frame
    /// continues the stream, after a loss of sync only one that stands where tags do. Nil when no tag is there.
    private func tagFollows(at position: Int, frameAt start: Int, in input: ReaderInput) -> Confirmation? {
        guard input.bytes.startsTag(at: position) else { return nil }
        if isSynced { return .confirmed }
        let candidate = UnsafeRawBufferPointer(rebasing: input.bytes[position...])
        switch TagReader.detect(candidate, limits: limits, isEndOfInput: input.isEndOfInput) {
        case .tag(let tag): return placement(of: tag, at: position, bounded: false, from: start, in: input)
        case .needMoreData(let count) where !input.isEndOfInput: return .needMore(position + count - start)
        case .needMoreData, .notATag: return nil
        }
    }

    enum Confirmation {
        case confirmed
        case refuted
        /// Bytes needed from the frame's start to decide.
        case needMore(Int)
    }

    /// Whether the frame at `position` is followed by what a real frame is followed by: a compatible header
    /// (any valid one when the frame continues the current format), a tag, or the end of the input. After a
    /// loss of sync, the headers after it must chain on for as many frames as the format asks, each of them
    /// and the frame's own header fit to confirm a resync.
    @inline(__always)
    func confirmation(of header: Format.Header, length: Int, at position: Int, in input: ReaderInput)
        -> Confirmation
    {
        let bytes = input.bytes
        // Nearly every frame: in sync, and the next one of the stream right after it. Decided before the chain.
        let end = position + length
        if isSynced, end + Format.headerLength <= bytes.count, Format.mayStartFrame(bytes[end]),
           let following = format.header(in: bytes, at: end), format.isCompatible(following, with: header) {
            return .confirmed
        }
        let continuesStream = isSynced && current.map { format.isCompatible(header, with: $0) } ?? false
        guard isSynced || format.confirmsResync(header, frame: nil, startedBy: header) else { return .refuted }
        var previous = header
        var previousStart = position
        var next = end
        let links = isSynced ? 1 : format.headersConfirmingResync(of: header)
        for depth in 0..<links {
            guard next + Format.headerLength <= bytes.count else {
                guard input.isEndOfInput else { return .needMore(next + Format.headerLength - position) }
                // The input ends within a header: the chain holds as far as it goes, and a complete frame of the
                // current format is the last one.
                guard depth == 0 else { return .confirmed }
                // Alone, it must continue the stream right after its last frame (past junk, a header in the tail
                // of a frame cut short fits as often as not), or be all the input (a file of one frame) or all
                // that follows a tag.
                let continuesStream = input.offset + Int64(position) == endOfLastFrame
                    && current.map { format.isCompatible(header, with: $0) } ?? false
                return next <= bytes.count && (continuesStream || startsInput(position, in: input))
                    ? .confirmed : .refuted
            }
            guard Format.mayStartFrame(bytes[next]), let following = format.header(in: bytes, at: next) else {
                if let confirmation = tagFollows(at: next, frameAt: position, in: input) { return confirmation }
                // A chain of frames from the start of the input is a short file, which padding or a cut may end
                // as well as a tag does.
                if depth > 0, startsInput(position, in: input) { return .confirmed }
                // Its header confirmed the frame before and states its length: junk after it does not refute it.
                guard depth == 0, continuesStream, input.offset + Int64(position) == endOfLastFrame,
                      case .exact = format.frameLength(of: header) else { return .refuted }
                return confirmationOfLastFrame(header, length: length, at: position, in: input)
            }
            guard format.isCompatible(following, with: previous) || (depth == 0 && continuesStream) else {
                return .refuted
            }
            if !isSynced {
                let frame = UnsafeRawBufferPointer(rebasing: bytes[previousStart..<next])
                guard format.confirmsResync(previous, frame: frame, startedBy: header),
                      format.confirmsResync(following, frame: nil, startedBy: header) else { return .refuted }
            }
            guard depth + 1 < links else { break }
            previous = following
            previousStart = next
            switch endInResyncChain(of: following, at: next, in: bytes) {
            case .at(let end): next = end
            case .none: return .refuted
            case .beyondInput(let searchEnd): return input.isEndOfInput ? .confirmed : .needMore(searchEnd - position)
            }
        }
        return .confirmed
    }

    /// Whether the frame at `position` starts the input or follows a tag right away: nothing before it was junk.
    private func startsInput(_ position: Int, in input: ReaderInput) -> Bool {
        (position == 0 && skip.isEmpty) || input.offset + Int64(position) == endOfLastTag
    }

    /// Where a frame in the chain that confirms a resync ends: one whose length only the next sync tells (MPEG
    /// free format) is as long as the expected length measured on the chain's first frame, as one encoder's
    /// frames are; bytes of other data that chain as such headers do so at lengths that vary.
    private func endInResyncChain(of header: Format.Header, at position: Int, in bytes: UnsafeRawBufferPointer)
        -> FrameEnd
    {
        if case .untilNextFrame(let minimum, let maximum, let expected?) = format.frameLength(of: header) {
            return (minimum...maximum).contains(expected) ? .at(position + expected) : .none
        }
        return format.end(ofFrame: header, at: position, in: bytes)
    }

    /// A frame vouched for by its predecessor and followed by junk is the last before the junk, as FFmpeg and
    /// libmpg123 keep it, unless it was cut short: a frame of the stream starting inside it, confirmed by the
    /// header after it, shows where the stream really went on.
    private func confirmationOfLastFrame(_ header: Format.Header, length: Int, at position: Int,
                                         in input: ReaderInput) -> Confirmation {
        let bytes = input.bytes
        for inner in position + 1..<position + length where Format.mayStartFrame(bytes[inner]) {
            guard let candidate = format.header(in: bytes, at: inner), format.isCompatible(candidate, with: header),
                  case .exact(let candidateLength) = format.frameLength(of: candidate) else { continue }
            let after = inner + candidateLength
            guard after + Format.headerLength <= bytes.count else {
                // Only more bytes can tell; at the end of the input, doubt refutes.
                return input.isEndOfInput ? .refuted : .needMore(after + Format.headerLength - position)
            }
            if let following = format.header(in: bytes, at: after), format.isCompatible(following, with: candidate) {
                return .refuted
            }
        }
        return .confirmed
    }

    /// Whether a compatible header or a tag follows the frame at `position`, all of whose bytes are present.
    func isFollowed(_ header: Format.Header, length: Int, at position: Int, in input: ReaderInput) -> Bool {
        let bytes = input.bytes
        let next = position + length
        if Format.mayStartFrame(bytes[next]), let following = format.header(in: bytes, at: next) {
            return format.isCompatible(following, with: header)
        }
        return bytes.startsTag(at: next)
    }
}
