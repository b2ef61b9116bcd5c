/// An incremental audio stream parser with the contract of Apple's Audio File Stream Services.
///
/// Feed it bytes in any chunking with `parse(_:discontinuity:offset:)` and call `finish()` at the end of the
/// input. It calls the handler synchronously, from inside those calls, with properties as they become known
/// (ReadyToProducePackets last of the header set), whole packets, tags and skipped bytes. The events do not
/// depend on how the input was chunked. The handler may read properties and translations but must not parse.
public final class AudioFileStream {
    /// Receives the stream's events in stream order.
    public typealias EventHandler = (AudioFileStreamEvent) -> Void

    let output: ParserOutput
    private let limits: MetadataLimits
    /// The type hint for the file being read: the stream's, or the one `markNewFile(reason:fileTypeHint:)` gave.
    private var fileTypeHint: AudioFileType?
    private var reader: (any FormatReader)?
    private var sniffer: FormatSniffer
    /// Unconsumed bytes carried over to the next call: the stream's start while its type is sniffed, then a
    /// packet straddling two chunks or the headers confirming one.
    private var pending: [UInt8] = []
    /// The absolute stream offset of `pending[0]`, or of the next byte to be fed when `pending` is empty.
    private var pendingOffset: Int64 = 0
    /// Bytes the reader needs, counted from `pending[0]`, before it can go on.
    private var needed = 0
    /// Bytes the reader left to pass over before it is called again: they are never held. Looked at on every
    /// read, so the runtime's exclusivity check is skipped: only this class's own methods reach it, and a handler
    /// that re-entered `parse` would still trap on the checked `reader`.
    @exclusivity(unchecked) private var passage = Passage()
    /// The absolute stream offset of the first byte of the file being read: 0, or where `markNewFile()` said
    /// the next file starts.
    private var fileStart: Int64 = 0
    private(set) var isFinished = false

    /// How many packets have their offset remembered unless `init` says otherwise: about seven hours of 44.1 kHz
    /// MP3, 8 MiB.
    public static let defaultIndexedPackets = PacketIndex.defaultCapacity

    /// Opens a stream. `fileTypeHint` names the type when the caller knows it (from a MIME type or file
    /// extension); without one the type is sniffed from the first bytes.
    /// - Parameter indexedPackets: how many packets, from the first, have their exact offset and first frame
    ///   remembered (8 bytes each, at most) for the translations and seeking. Beyond them translations are estimates. A live relay that never translates nor seeks can keep none,
    ///   and its memory then stays flat however long it runs.
    /// - Throws: `AudioFileStreamError.unsupportedFileType` when the hinted type is not supported.
    public init(fileTypeHint: AudioFileType? = nil, limits: MetadataLimits = MetadataLimits(),
                indexedPackets: Int = defaultIndexedPackets, handler: @escaping EventHandler) throws {
        self.limits = limits
        self.fileTypeHint = fileTypeHint
        output = ParserOutput(indexCapacity: max(indexedPackets, 0), handler: handler)
        sniffer = try FormatSniffer(hint: fileTypeHint)
        output.infoDictionary = { [unowned self] in infoDictionary }
    }

    /// The bytes currently held between calls, whatever the input: up to `FormatSniffer.searchLength` past a
    /// leading tag (at most `FormatSniffer.largestLeadingTag`) while the type is sniffed, then a few frames.
    public var bufferedByteCount: Int { pending.count }

    /// Parses the next bytes of the stream.
    /// - Parameters:
    ///   - discontinuity: these bytes do not follow the previous ones. Complete packets held so far are
    ///     delivered, a partial one is dropped, a tag cut short gives the fields read before the cut, and the
    ///     parser resyncs on a confirmed packet boundary. Before the first packet nothing is dropped.
    ///   - offset: the absolute stream offset of `bytes[0]`, e.g. after a seek; by default offsets keep counting
    ///     the bytes fed. An offset other than the next expected one is a discontinuity, flagged or not.
    /// - Throws: `AudioFileStreamError.unsupportedFileType` when the sniffed type is not supported,
    ///   `.illegalOperation` after `finish()`, or an `AudioFileStreamFailure` when the bytes cannot be read on
    ///   (an unsupported data format inside a container, a container that cannot be streamed), then again on
    ///   every later call.
    public func parse(_ bytes: UnsafeRawBufferPointer, discontinuity: Bool = false, offset: Int64? = nil) throws {
        guard !isFinished else { throw AudioFileStreamError.illegalOperation }
        if let failure = output.failure { throw failure }
        if discontinuity || offset != nil {
            try handleDiscontinuity(at: offset, flagged: discontinuity)
        }
        if reader != nil {
            feed(bytes, isEndOfInput: false)
        } else {
            // Held whole until the type is known: a bounded prefix of the stream.
            pending.append(contentsOf: bytes)
            if try sniff(isEndOfInput: false) { feedSniffedBytes(isEndOfInput: false) }
        }
        if let failure = output.failure { throw failure }
    }

    /// Parses the next bytes of the stream; see `parse(_:discontinuity:offset:)`.
    public func parse(_ bytes: [UInt8], discontinuity: Bool = false, offset: Int64? = nil) throws {
        try bytes.withUnsafeBytes { try parse($0, discontinuity: discontinuity, offset: offset) }
    }

    /// Says that the next bytes will not follow the previous ones, as `parse(_:discontinuity:offset:)` does, and
    /// why: the discontinuity event carries `reason`, such as `.reconnect` when a network source connected again.
    /// - Throws: `.illegalOperation` after `finish()`, or the failure that ended the stream.
    public func markDiscontinuity(_ reason: Discontinuity.Reason) throws {
        guard !isFinished else { throw AudioFileStreamError.illegalOperation }
        if let failure = output.failure { throw failure }
        try handleDiscontinuity(at: nil, flagged: true, reason: reason)
        if let failure = output.failure { throw failure }
    }

    /// Says that the next bytes start a file from its first byte, as when a looped file is read again: the bytes
    /// so far are ended as `finish()` ends them, and the next ones are read as a new file, its type sniffed and
    /// its headers read afresh. The stream goes on: offsets keep counting the bytes fed (positions the new file
    /// states, such as MP4 chunk offsets, are placed from where it starts), packets keep their numbering,
    /// properties are announced again only when their value changes, and a discontinuity event (reason `.input`)
    /// marks where the new file starts: `reason`, `.input` unless the caller says why; after `.newSegment` the new
    /// file's PacketTableInfo is announced even when it equals the last file's. A discontinuity cannot say this:
    /// after one, a container's reader looks for the rest of the file it was reading.
    /// - Throws: `.illegalOperation` after `finish()`, the failure that ended the stream, or
    ///   `.unsupportedFileType` when the bytes so far were too few to tell their type and are not one supported.
    public func markNewFile(reason: Discontinuity.Reason = .input) throws {
        try markNewFile(reason: reason, fileTypeHint: fileTypeHint)
    }

    /// Says that the next bytes start a file from its first byte, as `markNewFile(reason:)` does, of a type that
    /// `fileTypeHint` names (nil: sniffed from its bytes): a live source whose next encoder may send another
    /// format than the last one. The hint holds for the files that follow too.
    /// - Throws: as `markNewFile(reason:)` does, and `.unsupportedFileType` when the hinted type is not supported.
    public func markNewFile(reason: Discontinuity.Reason = .input, fileTypeHint: AudioFileType?) throws {
        guard !isFinished else { throw AudioFileStreamError.illegalOperation }
        if let failure = output.failure { throw failure }
        try endInput()
        reader = nil
        sniffer = try FormatSniffer(hint: fileTypeHint)
        self.fileTypeHint = fileTypeHint
        fileStart = pendingOffset + Int64(pending.count)
        // A segment is trimmed by its own file's table: one equal to the last file's is announced again, and a
        // file without one leaves none.
        if reason == .newSegment { output.forget(.packetTableInfo) }
        output.discontinuity(at: fileStart, skippedBytes: 0, reason: reason)
        if let failure = output.failure { throw failure }
    }

    /// Ends the input: the last complete packet is delivered, a truncated one is reported as skipped bytes, and
    /// a tag the input ends inside gives the fields read before the end.
    /// - Throws: as `parse(_:discontinuity:offset:)` does.
    public func finish() throws {
        if let failure = output.failure { throw failure }
        guard !isFinished else { return }
        try endInput()
        isFinished = true
        output.announceMeasurements()
        if let failure = output.failure { throw failure }
    }

    /// Runs the reader over the held bytes as the end of the input, choosing it from them first if it is not
    /// chosen yet: everything held is consumed.
    private func endInput() throws {
        if try sniff(isEndOfInput: true) { feedSniffedBytes(isEndOfInput: true) }
    }

    /// Ends the run of bytes fed so far as if the input ended there, so complete packets are kept and only a
    /// partial one is dropped; then the reader looks for a boundary again. Before the first packet nothing is
    /// dropped, since players flag discontinuities from ReadyToProducePackets on.
    private func handleDiscontinuity(at offset: Int64?, flagged: Bool,
                                     reason: Discontinuity.Reason = .input) throws {
        let expectedOffset = pendingOffset + Int64(pending.count)
        let jumps = offset.map { $0 != expectedOffset } ?? false
        guard flagged || jumps else { return }
        if output.index.packetCount > 0 || jumps {
            if reader == nil {
                // The bytes held to sniff the type are all there is of this run: decide on them.
                try endInput()
            } else if !pending.isEmpty {
                feed(UnsafeRawBufferPointer(start: nil, count: 0), isEndOfInput: true)
            }
            passage.end(into: output)
            reader?.resetForDiscontinuity(endingAt: expectedOffset, into: output)
            pending.removeAll(keepingCapacity: true)
            needed = 0
            pendingOffset = offset ?? expectedOffset
            if jumps && output.index.packetCount > 0 { output.reposition(to: pendingOffset) }
        }
        let skipped = max((offset ?? expectedOffset) - expectedOffset, 0)
        output.discontinuity(at: offset ?? expectedOffset, skippedBytes: skipped, reason: reason)
    }

    /// Chooses the reader from the held bytes, unless it is chosen already; returns false while more are needed
    /// to decide.
    private func sniff(isEndOfInput: Bool) throws -> Bool {
        guard reader == nil else { return true }
        reader = try pending.withUnsafeBytes {
            try sniffer.reader(sniffing: $0, isEndOfInput: isEndOfInput, limits: limits)
        }
        return reader != nil
    }

    /// Runs the reader, once chosen, over the bytes held to choose it.
    private func feedSniffedBytes(isEndOfInput: Bool) {
        let held = pending
        pending.removeAll(keepingCapacity: true)
        held.withUnsafeBytes { feed($0, isEndOfInput: isEndOfInput) }
    }

    /// Runs the reader over the held bytes, topped up from `bytes` as far as it needs, then over `bytes` in
    /// place; only the unconsumed tail is copied, so a packet is copied only when it straddles two chunks.
    private func feed(_ bytes: UnsafeRawBufferPointer, isEndOfInput: Bool) {
        var cursor = 0
        while !pending.isEmpty {
            let wanted = max(needed - pending.count, 1)
            let take = min(wanted, bytes.count - cursor)
            if take < wanted && !isEndOfInput {
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[cursor...]))
                return
            }
            let carried = pending.count
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[cursor..<cursor + take]))
            cursor += take
            let atEnd = isEndOfInput && cursor == bytes.count
            let progress = pending.withUnsafeBytes { read($0, at: pendingOffset, isEndOfInput: atEnd) }
            pendingOffset += Int64(progress.consumed)
            needed = progress.needed
            if progress.consumed >= carried {
                // The straddling unit is done: go on in `bytes` from where the reader stopped.
                cursor -= pending.count - progress.consumed
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.removeFirst(progress.consumed)
            }
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[cursor...])
        let progress = read(rest, at: pendingOffset, isEndOfInput: isEndOfInput)
        pendingOffset += Int64(progress.consumed)
        needed = progress.needed
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[progress.consumed...]))
    }

    /// Runs the reader over `bytes`, passing over the bytes it leaves, and on over the rest with the reader of
    /// another format when the stream changes format.
    // Inlined at both its call sites in `feed`, as it was before it passed bytes over: a call here cost a CAF
    // parse 1 % of its instructions.
    @inline(__always)
    private func read(_ bytes: UnsafeRawBufferPointer, at offset: Int64, isEndOfInput: Bool) -> ReadProgress {
        var consumed = 0
        while true {
            if !passage.isDone {
                consumed += passage.take(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), into: output)
                if !passage.isDone {
                    guard isEndOfInput else { return ReadProgress(consumed: consumed, needed: 0) }
                    passage.end(into: output)
                }
            }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[consumed...])
            let restOffset = offset + Int64(consumed)
            output.begin(buffer: rest, offset: restOffset)
            let progress = reader!.read(
                ReaderInput(bytes: rest, offset: restOffset, fileStart: fileStart, isEndOfInput: isEndOfInput),
                into: output)
            output.flush()
            consumed += progress.consumed
            if let skip = progress.skip {
                passage = Passage(skip)
                continue
            }
            guard let replacement = progress.replacement else {
                return ReadProgress(consumed: consumed, needed: progress.needed)
            }
            reader = replacement
        }
    }
}
