/// Reads an Ogg physical stream (RFC 3533) of Opus, Vorbis or FLAC.
///
/// Pages are found by their capture pattern and believed only when their CRC-32 matches: anything else is junk,
/// skipped and reported up to the next `OggS`. The first audio logical stream is followed; other multiplexed
/// streams are ignored and reported once each. Packets are cut from the lacing values, and one continued across
/// pages is assembled (bounded by `largestPacket`) and delivered as a copy. When the followed stream ends (EOS),
/// the next one to begin (BOS) is a new link of the chain: its format, magic cookie and comments are announced
/// again; so are they when a new stream begins without the last one's end, as a restarted source sends it. Each
/// packet's frames come from the codec; granule positions are checked against them, never trusted
/// over them, and give the stream's priming and remainder.
struct OggReader: FormatReader {
    /// The longest packet assembled across pages, cover art in a comment header included: a longer one is
    /// dropped and reported, so a packet that never ends costs bounded memory.
    static let largestPacket = 8 << 20
    /// Ignored logical streams remembered (and reported) at most, so ever new serial numbers cost bounded memory.
    static let ignoredStreamLimit = 64

    let limits: MetadataLimits
    var followed = OggFollowedStream.none
    var ignored: Set<UInt32> = []
    var hasAnnouncedFileFormat = false
    /// The pieces so far of the packet the last page left open, and the stream offset of its first byte. Empty
    /// when there is none or when the one continued is dropped (its start was missed, or it grew too long).
    var partial: [UInt8] = []
    var partialOffset: Int64 = 0
    /// The packet completed from `partial` on the current page.
    var assembled: [UInt8] = []
    var pagePackets: [PagePacket] = []
    var skip = SkipRun()
    /// Where bytes skipped between the pieces of the open packet (junk between its pages) are reported, once
    /// the packet, which starts before them, is delivered.
    var skipInsidePacket: Int64?

    init(limits: MetadataLimits) {
        self.limits = limits
        pagePackets.reserveCapacity(256)
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        var position = 0
        while position < bytes.count {
            switch OggPage.find(in: bytes, at: position) {
            case .needMore(let count) where !input.isEndOfInput:
                return ReadProgress(consumed: position, needed: count)
            case .page(let page) where position + page.length > bytes.count && !input.isEndOfInput:
                return ReadProgress(consumed: position, needed: page.length)
            case .page(let page) where position + page.length <= bytes.count && page.crcMatches(in: bytes, at: position):
                take(page, at: position, in: input, into: output)
                position += page.length
            default:
                position = skipJunk(from: position, in: bytes)
            }
        }
        if input.isEndOfInput {
            dropPartialPacket()
            skip.report(resumingAt: input.offset + Int64(bytes.count), to: output)
        }
        return ReadProgress(consumed: position, needed: 0)
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        dropPartialPacket()
        skip.report(resumingAt: offset, to: output)
        followed.stream?.resetForDiscontinuity()
    }

    /// Skips up to the next byte that may start a page.
    private mutating func skipJunk(from position: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        var next = position + 1
        while next < bytes.count, bytes[next] != 0x4F { next += 1 }  // "O"
        skip.add(next - position)
        return next
    }

    /// Drops the packet left open, which will not be completed: its bytes join the skipped run.
    mutating func dropPartialPacket() {
        skip.add(partial.count)
        partial.removeAll(keepingCapacity: true)
        skipInsidePacket = nil
    }

    /// A page whose CRC matched, at `position` in the input.
    private mutating func take(_ page: OggPage, at position: Int, in input: ReaderInput, into output: ParserOutput) {
        let offset = input.offset + Int64(position)
        var firstSegment = 0
        // A first page after the followed stream's headers starts a new link even without that stream's last page
        // (a source that restarted): the first pages of multiplexed streams all come before any data (RFC 3533).
        if page.isFirst, followed.acceptsNewStream, !ignored.contains(page.serial) {
            guard let segment = begin(page, at: position, offset: offset, in: input.bytes, into: output) else { return }
            firstSegment = segment
        }
        guard let stream = followed.stream, stream.serial == page.serial else {
            return ignore(page, at: offset, into: output)
        }
        if !page.isFirst, let expected = stream.nextSequence, page.sequence != expected {
            output.warning(.positionMismatch, at: offset, "Ogg page at \(offset) has sequence number "
                + "\(page.sequence), not \(expected): pages are missing")
            dropPartialPacket()
            stream.resetForDiscontinuity()
        }
        stream.nextSequence = page.sequence &+ 1
        if !page.isContinued { dropPartialPacket() }
        // What was skipped before this page (junk, a dropped packet) ends here; inside a packet this page goes
        // on with, it is reported after that packet.
        if partial.isEmpty {
            skip.report(resumingAt: offset, to: output)
        } else if !skip.isEmpty {
            skipInsidePacket = offset
        }
        takePackets(of: page, stream, at: position, from: firstSegment, in: input, into: output)
    }

    /// Starts following the logical stream whose first page is `page`, from its identification packet; returns
    /// the page's segment after that packet, or nil when the stream is not one this reader follows.
    private mutating func begin(_ page: OggPage, at position: Int, offset: Int64, in bytes: UnsafeRawBufferPointer,
                                into output: ParserOutput) -> Int? {
        var size = 0
        var segment = 0
        while segment < page.segmentCount {
            let lacing = page.lacing(segment, in: bytes, at: position)
            size += lacing
            segment += 1
            if lacing < 255 { break }
        }
        let start = position + page.headerLength
        let packet = UnsafeRawBufferPointer(rebasing: bytes[start..<start + size])
        guard segment > 0, page.lacing(segment - 1, in: bytes, at: position) < 255,
              let codec = OggCodecs.codec(identifiedBy: packet) else {
            ignore(page, at: offset, into: output, name: OggCodecs.name(identifiedBy: packet))
            return nil
        }
        dropPartialPacket()
        followed = .headers(OggLogicalStream(serial: page.serial, codec: codec, sequence: page.sequence))
        return segment
    }

    /// A page of a stream not followed: another multiplexed stream is reported once; a stream whose first page
    /// was never seen, with nothing followed, cannot be decoded and is skipped.
    private mutating func ignore(_ page: OggPage, at offset: Int64, into output: ParserOutput, name: String? = nil) {
        guard !ignored.contains(page.serial) else { return }
        guard page.isFirst || followed.stream != nil else {
            skip.add(page.length)
            return
        }
        guard ignored.count < Self.ignoredStreamLimit else { return }
        ignored.insert(page.serial)
        let what = name.map { "an Ogg logical stream of \($0)" } ?? "Ogg logical stream \(page.serial)"
        output.warning(.otherStreamIgnored, at: offset, "\(what) at \(offset) is ignored: "
            + (followed.serial.map { "logical stream \($0) is followed" } ?? "it is not audio this parser reads"))
    }
}
