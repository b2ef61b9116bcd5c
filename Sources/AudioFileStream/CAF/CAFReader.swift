/// Reads a Core Audio Format file (Apple's Core Audio Format Specification): the `caff` header, then chunks.
///
/// `desc` (first, as the specification requires) gives DataFormat; `chan` ChannelLayout; `kuki` MagicCookieData
/// (`CAFMagicCookie`); `info` one metadata event (source `cafInfo`); `pakt` PacketTableInfo, AudioDataPacketCount
/// and the packets of a format whose packets vary; `data`, past its 4-byte edit count, the audio: DataOffset,
/// AudioDataByteCount and ReadyToProducePackets are announced there. Other chunks stream past unread.
///
/// Formats of constant-size packets (linear PCM, G.711, IMA4) are cut by the description, as batches without
/// descriptions; a packet straddling two inputs waits for the rest. Other formats (AAC, ALAC, Opus, …) are cut by
/// the packet table, which must come before the audio: on a stream the audio cannot wait for a table that
/// follows it, so a `data` chunk reached without one stops the stream with `AudioFileStreamError.notOptimized`,
/// as Apple's parser does. A file can be given out of order, the `pakt` chunk first: between chunks before the
/// audio, a discontinuity's offset is taken for the start of a chunk. A `data` size of -1 (a streaming writer's)
/// runs to the end of the input.
///
/// Bad input stops the stream with `.invalidFile`: a first chunk other than `desc`, a `desc` without a positive
/// rate or channels, a negative chunk size other than `data`'s -1, a chunk smaller than its fixed fields, a
/// packet table larger than `CAFPacketTable.largestTable` or whose entries do not parse, packets larger than
/// `largestPacket` or more bytes of packets than the `data` chunk holds. Nothing is held by a size a chunk
/// claims: kept chunks grow as their bytes arrive, within their caps (`info` within
/// `MetadataLimits.maxTagBytes`, `kuki` within `CAFMagicCookie.largestCookie`).
struct CAFReader: FormatReader {
    /// The largest packet cut: 512 KiB, above any packet of the formats CAF carries (an ALAC packet of 4096
    /// frames of 8 channels of 32 bits is 128 KiB), and small enough to be held while it arrives.
    static let largestPacket = 1 << 19
    /// The largest chunk size believed; a larger one would overflow the offsets computed from it.
    private static let largestChunk: Int64 = 1 << 62

    enum State {
        case fileHeader
        case chunkHeader
        /// A chunk read whole before it is used, its body streaming into `body`.
        case collecting(CAFChunkHeader, offset: Int64, remaining: Int64)
        /// Inside the `data` chunk's audio.
        case audio
        /// The chunk structure is lost (the input ended or jumped inside a chunk header): everything is skipped
        /// until a discontinuity lands inside the audio.
        case lost
    }

    private let limits: MetadataLimits
    var state = State.fileHeader
    private var body = FieldBuffer(limit: 0)
    var description: CAFAudioDescription?
    var table: CAFPacketTable?
    /// The next packet of the table.
    var cursor = CAFPacketTable.Cursor()
    /// The audio's first byte (past the edit count) and the byte after its last (nil: the end of the input).
    var audio: (start: Int64, end: Int64?)?
    var skip = SkipRun()
    /// The stream offset of the next byte this reader expects (past the bytes it left to the driver to pass
    /// over), so that a discontinuity is placed.
    var position: Int64 = 0
    var repositions = false
    /// The body of the chunk just started, which `read` leaves to the driver to pass over.
    private var unread: Int64 = 0

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        // A failed stream reports nothing more.
        guard output.failure == nil else { return ReadProgress(consumed: bytes.count, needed: 0) }
        if repositions {
            reposition(to: input.offset)
        } else if input.offset < position {
            // The input ended inside a chunk passed over.
            state = .lost
        }
        var consumed = 0
        var needed = 0
        while consumed < bytes.count {
            let step = self.step(input, from: consumed, output: output)
            consumed += step.consumed
            needed = step.needed
            guard output.failure == nil else { return ReadProgress(consumed: bytes.count, needed: 0) }
            if unread > 0 {
                defer { unread = 0 }
                position = input.offset + Int64(consumed) + unread
                return ReadProgress(consumed: consumed, needed: 0, skip: .bytes(unread))
            }
            if step.needed > 0 { break }
        }
        if input.isEndOfInput, consumed < bytes.count {
            // The input ends inside a structure or a packet: its bytes are skipped, and the chunk structure is
            // lost but for the audio, whose packets are found again by position.
            skip.add(bytes.count - consumed)
            consumed = bytes.count
            if case .audio = state {} else { state = .lost }
        }
        position = input.offset + Int64(consumed)
        guard !input.isEndOfInput else {
            skip.report(resumingAt: position, to: output)
            return ReadProgress(consumed: consumed, needed: 0)
        }
        return ReadProgress(consumed: consumed, needed: needed)
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        skip.report(resumingAt: offset, to: output)
        // Cut inside a chunk passed over: the chunks after it cannot be found.
        if offset < position { state = .lost }
        repositions = true
    }

    /// One step from `input.bytes[index]`: how many bytes it consumed, or how many it needs from there.
    private mutating func step(_ input: ReaderInput, from index: Int, output: ParserOutput)
        -> (consumed: Int, needed: Int) {
        let bytes = UnsafeRawBufferPointer(rebasing: input.bytes[index...])
        let offset = input.offset + Int64(index)
        switch state {
        case .fileHeader:
            guard bytes.count >= CAFChunkHeader.fileHeaderLength else { return (0, CAFChunkHeader.fileHeaderLength) }
            guard CAFChunkHeader.isFileHeader(bytes) else {
                output.fail(.invalidFile, at: offset, "the CAF file header is not version 1")
                return (0, 0)
            }
            output.announce(.fileFormat, .fileType(AudioFileType(rawValue: "caff")))
            state = .chunkHeader
            return (CAFChunkHeader.fileHeaderLength, 0)
        case .chunkHeader:
            guard bytes.count >= CAFChunkHeader.length else { return (0, CAFChunkHeader.length) }
            let header = CAFChunkHeader(bytes)
            // A file has one data chunk: a second one's bytes are no packets of the first one's table.
            if header.type == CAFChunkHeader.data, audio == nil {
                guard let description, header.runsToEnd || header.size >= 4 && header.size <= Self.largestChunk else {
                    output.fail(.invalidFile, at: offset, description == nil
                        ? "the CAF data chunk comes before the desc chunk that says its format"
                        : "the CAF data chunk's size \(header.size) cannot hold its edit count")
                    return (0, 0)
                }
                // The data chunk's edit count comes with its header: the audio starts past it.
                guard bytes.count >= CAFChunkHeader.length + 4 else { return (0, CAFChunkHeader.length + 4) }
                let started = startAudio(header, of: description, at: offset, output: output)
                return (started ? CAFChunkHeader.length + 4 : 0, 0)
            }
            guard startChunk(header, at: offset, output: output) else { return (0, 0) }
            return (CAFChunkHeader.length, 0)
        case .collecting(let header, let chunkOffset, let remaining):
            let taken = Int(min(remaining, Int64(bytes.count)))
            body.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(taken)))
            state = .collecting(header, offset: chunkOffset, remaining: remaining - Int64(taken))
            if Int64(taken) == remaining {
                state = .chunkHeader
                finishChunk(header, at: chunkOffset, output: output)
            }
            return (taken, 0)
        case .audio:
            return readAudio(input, from: index, output: output)
        case .lost:
            skip.add(bytes.count)
            return (bytes.count, 0)
        }
    }

    /// A chunk other than the first `data` starts at `offset`; returns false when the stream failed on it.
    private mutating func startChunk(_ header: CAFChunkHeader, at offset: Int64, output: ParserOutput) -> Bool {
        guard header.size >= 0, header.size <= Self.largestChunk else {
            output.fail(.invalidFile, at: offset, "a CAF chunk's size \(header.size) is not one any file has")
            return false
        }
        guard description != nil || header.type == CAFChunkHeader.description else {
            output.fail(.invalidFile, at: offset, "the first CAF chunk is not desc, which must come first")
            return false
        }
        // The fixed fields of a chunk read whole must be there.
        let least = [CAFChunkHeader.description: CAFAudioDescription.length,
                     CAFChunkHeader.packetTable: CAFPacketTable.headerLength][header.type] ?? 0
        guard header.size >= least, header.type != CAFChunkHeader.packetTable
                || header.size <= CAFPacketTable.largestTable else {
            output.fail(.invalidFile, at: offset, "the CAF \(header.type) chunk's size \(header.size) cannot hold "
                + "what it must, or passes the \(CAFPacketTable.largestTable)-byte packet table cap")
            return false
        }
        let keep: Int?
        switch header.type {
        case CAFChunkHeader.description where description == nil:
            keep = CAFAudioDescription.length
        case CAFChunkHeader.packetTable:
            keep = Int(header.size)
        case CAFChunkHeader.channelLayout:
            keep = AudioChannelLayout.cafHeaderLength
        case CAFChunkHeader.magicCookie where header.size <= CAFMagicCookie.largestCookie:
            keep = Int(header.size)
        case CAFChunkHeader.magicCookie:
            output.warning(.headerMismatch, at: offset, "CAF kuki chunk at \(offset) holds \(header.size) bytes, "
                + "more than the \(CAFMagicCookie.largestCookie) kept: skipped, no magic cookie")
            keep = nil
        case CAFChunkHeader.information:
            keep = Int(min(header.size, Int64(limits.maxTagBytes)))
        default:
            keep = nil
        }
        guard let keep, header.size > 0 else {
            state = .chunkHeader
            unread = header.size
            return true
        }
        body = FieldBuffer(limit: keep)
        state = .collecting(header, offset: offset, remaining: header.size)
        return true
    }

    /// Uses a chunk read whole, whose header is at `offset`.
    private mutating func finishChunk(_ header: CAFChunkHeader, at offset: Int64, output: ParserOutput) {
        let kept = body.kept
        body = FieldBuffer(limit: 0)
        kept.withUnsafeBytes { body in
            switch header.type {
            case CAFChunkHeader.description:
                guard let description = CAFAudioDescription(body) else {
                    return output.fail(.invalidFile, at: offset, "the CAF desc chunk names no rate, channels or format")
                }
                self.description = description
                output.measuresBitRate = true
                output.announce(.dataFormat, .format(description.format))
            case CAFChunkHeader.channelLayout:
                guard body.count == AudioChannelLayout.cafHeaderLength,
                      let layout = AudioChannelLayout(caf: body, channels: description!.format.channelsPerFrame)
                else { return }
                output.announce(.channelLayout, .channelLayout(layout))
            case CAFChunkHeader.magicCookie:
                guard let cookie = CAFMagicCookie.cookie(body, formatID: description!.format.formatID) else {
                    return output.warning(.headerMismatch, at: offset, "CAF kuki chunk at \(offset) does not hold "
                        + "the configuration of \(description!.format.formatID): no magic cookie")
                }
                output.announce(.magicCookieData, .data(cookie))
            case CAFChunkHeader.information:
                guard let metadata = CAFInformation.metadata(body, limits: limits) else { return }
                output.metadata(metadata, at: offset)
            default:
                takePacketTable(body, at: offset, output: output)
            }
        }
    }

    /// Reads the first `pakt`; a file has one, and another must not change the packets being cut.
    private mutating func takePacketTable(_ body: UnsafeRawBufferPointer, at offset: Int64, output: ParserOutput) {
        guard table == nil, let description else { return }
        guard let table = CAFPacketTable(body: body, hasEntries: !description.isConstantSize,
                                         hasFrameCounts: description.format.framesPerPacket == 0,
                                         largestPacket: Self.largestPacket)
        else {
            return output.fail(.invalidFile, at: offset, "the CAF pakt chunk's entries do not match its counts")
        }
        output.announce(.packetTableInfo, .packetTableInfo(table.info))
        output.announce(.audioDataPacketCount, .uint64(UInt64(table.packetCount)))
        guard !description.isConstantSize else { return }
        output.announce(.packetSizeUpperBound, .uint32(UInt32(table.largestPacket)))
        self.table = table
    }
}
