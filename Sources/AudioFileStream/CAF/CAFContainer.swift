/// The reader of Core Audio Format files.
struct CAFReader: ChunkedReader {
    var walker: ChunkWalker<CAFContainer>
}

/// A Core Audio Format file (Apple's Core Audio Format Specification) for `ChunkWalker`: the `caff` header, then
/// chunks of a 12-byte header, a big-endian signed 64-bit size and no pad byte.
///
/// `desc` (first, as the specification requires) gives DataFormat; `chan` ChannelLayout; `kuki` MagicCookieData
/// (`CAFMagicCookie`); `info` one metadata event (source `cafInfo`); `pakt` PacketTableInfo, AudioDataPacketCount
/// and the packets of a format whose packets vary; `data`, past its 4-byte edit count, the audio (`CAFPackets`):
/// DataOffset, AudioDataByteCount and ReadyToProducePackets are announced there. Other chunks stream past unread.
///
/// Formats of constant-size packets (linear PCM, G.711, IMA4) are cut by the description, as batches without
/// descriptions; a packet straddling two inputs waits for the rest. Other formats (AAC, ALAC, Opus, …) are cut by
/// the packet table, which must come before the audio: on a stream the audio cannot wait for a table that
/// follows it, so a `data` chunk reached without one stops the stream with `AudioFileStreamError.notOptimized`,
/// as Apple's parser does. A file can be given out of order, the `pakt` chunk first (`ChunkResync.reposition`).
/// A `data` size of -1 (a streaming writer's) runs to the end of the input.
///
/// Bad input stops the stream with `.invalidFile`: a first chunk other than `desc`, a `desc` without a positive
/// rate or channels, a negative chunk size other than `data`'s -1, a chunk smaller than its fixed fields, a
/// packet table larger than `CAFPacketTable.largestTable` or whose entries do not parse, packets larger than
/// `largestPacket` or more bytes of packets than the `data` chunk holds. Nothing is held by a size a chunk
/// claims: kept chunks grow as their bytes arrive, within their caps (`info` within
/// `MetadataLimits.maxTagBytes`, `kuki` within `CAFMagicCookie.largestCookie`).
struct CAFContainer: ChunkedContainer {
    static let name = "CAF"
    static let layout = ChunkLayout.caf
    static let resync = ChunkResync.reposition

    /// The largest packet cut: 512 KiB, above any packet of the formats CAF carries (an ALAC packet of 4096
    /// frames of 8 channels of 32 bits is 128 KiB), and small enough to be held while it arrives.
    static let largestPacket = 1 << 19
    /// The largest chunk size believed; a larger one would overflow the offsets computed from it.
    private static let largestChunk: Int64 = 1 << 62
    /// The `data` chunk's edit count, before its audio.
    private static let editCountLength = 4

    private static let description: FourCharCode = "desc"
    private static let channelLayout: FourCharCode = "chan"
    private static let magicCookie: FourCharCode = "kuki"
    private static let packetTable: FourCharCode = "pakt"
    private static let information: FourCharCode = "info"
    private static let data: FourCharCode = "data"

    private let limits: MetadataLimits
    private var description: CAFAudioDescription?
    private var table: CAFPacketTable?
    /// True once the `data` chunk's audio started: a file has one, and another is passed over.
    private var hasAudio = false

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    /// True when `bytes` start a CAF file of the one version there is.
    static func startsFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.matches("caff", at: 0) && bytes.bigEndianUInt16(at: 4) == 1
    }

    func readFileHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> AudioFileType
    {
        guard Self.startsFile(bytes) else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the CAF file header is not version 1")
        }
        return AudioFileType(rawValue: "caff")
    }

    mutating func plan(for chunk: ChunkHeader, at offset: Int64, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ChunkPlan
    {
        // A file has one data chunk: a second one's bytes are no packets of the first one's table.
        if chunk.id == Self.data, !hasAudio {
            let runsToEnd = chunk.size == -1
            guard description != nil,
                  runsToEnd || chunk.size >= Self.editCountLength && chunk.size <= Self.largestChunk else {
                throw AudioFileStreamFailure(.invalidFile, at: offset, description == nil
                    ? "the CAF data chunk comes before the desc chunk that says its format"
                    : "the CAF data chunk's size \(chunk.size) cannot hold its edit count")
            }
            return .audio(prefixLength: Self.editCountLength, size: runsToEnd ? nil : chunk.size)
        }
        guard chunk.size >= 0, chunk.size <= Self.largestChunk else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "a CAF chunk's size \(chunk.size) is not one any "
                + "file has")
        }
        guard description != nil || chunk.id == Self.description else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the first CAF chunk is not desc, which must come "
                + "first")
        }
        // The fixed fields of a chunk read whole must be there.
        let least = [Self.description: CAFAudioDescription.length,
                     Self.packetTable: CAFPacketTable.headerLength][chunk.id] ?? 0
        guard chunk.size >= least, chunk.id != Self.packetTable || chunk.size <= CAFPacketTable.largestTable else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the CAF \(chunk.id) chunk's size \(chunk.size) "
                + "cannot hold what it must, or passes the \(CAFPacketTable.largestTable)-byte packet table cap")
        }
        guard chunk.size > 0 else { return .skip }
        switch chunk.id {
        case Self.description where description == nil:
            return .keep(limit: CAFAudioDescription.length)
        case Self.packetTable:
            return .keep(limit: Int(chunk.size))
        case Self.channelLayout:
            return .keep(limit: AudioChannelLayout.cafHeaderLength)
        case Self.magicCookie where chunk.size <= CAFMagicCookie.largestCookie:
            return .keep(limit: Int(chunk.size))
        case Self.magicCookie:
            output.warning(.headerMismatch, at: offset, "CAF kuki chunk at \(offset) holds \(chunk.size) bytes, "
                + "more than the \(CAFMagicCookie.largestCookie) kept: skipped, no magic cookie")
            return .skip
        case Self.information:
            return .keep(limit: Int(min(chunk.size, Int64(limits.maxTagBytes))))
        default:
            return .skip
        }
    }

    mutating func read(_ chunk: ChunkHeader, body: UnsafeRawBufferPointer, at offset: Int64,
                       into output: ParserOutput) throws(AudioFileStreamFailure)
    {
        switch chunk.id {
        case Self.description:
            guard let description = CAFAudioDescription(body) else {
                throw AudioFileStreamFailure(.invalidFile, at: offset, "the CAF desc chunk names no rate (above 0, "
                    + "up to \(Int(AudioStreamBasicDescription.maximumSampleRate)) Hz), channels or format")
            }
            self.description = description
            output.measuresBitRate = true
            output.announce(.dataFormat, .format(description.format))
        case Self.channelLayout:
            guard body.count == AudioChannelLayout.cafHeaderLength,
                  let layout = AudioChannelLayout(caf: body, channels: description!.format.channelsPerFrame)
            else { return }
            output.announce(.channelLayout, .channelLayout(layout))
        case Self.magicCookie:
            guard let cookie = CAFMagicCookie.cookie(body, formatID: description!.format.formatID) else {
                return output.warning(.headerMismatch, at: offset, "CAF kuki chunk at \(offset) does not hold "
                    + "the configuration of \(description!.format.codecName): no magic cookie")
            }
            output.announce(.magicCookieData, .data(cookie))
        case Self.information:
            guard let metadata = CAFInformation.metadata(body, limits: limits) else { return }
            output.metadata(metadata, at: offset)
        default:
            try takePacketTable(body, at: offset, output: output)
        }
    }

    /// Reads the first `pakt`; a file has one, and another must not change the packets being cut.
    private mutating func takePacketTable(_ body: UnsafeRawBufferPointer, at offset: Int64, output: ParserOutput)
        throws(AudioFileStreamFailure)
    {
        guard table == nil, let description else { return }
        guard let table = CAFPacketTable(body: body, hasEntries: !description.isConstantSize,
                                         hasFrameCounts: description.format.framesPerPacket == 0,
                                         largestPacket: Self.largestPacket)
        else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the CAF pakt chunk's entries do not match its "
                + "counts")
        }
        output.announce(.packetTableInfo, .packetTableInfo(table.info))
        output.announce(.audioDataPacketCount, .uint64(UInt64(table.packetCount)))
        guard !description.isConstantSize else { return }
        output.announce(.packetSizeUpperBound, .uint32(UInt32(table.largestPacket)))
        self.table = table
    }

    /// The audio starts past the edit count; its packets are cut by the description or the packet table.
    mutating func startAudio(prefix: UnsafeRawBufferPointer, bodyStart: Int64, size: Int64?, at offset: Int64,
                             into output: ParserOutput) throws(AudioFileStreamFailure) -> CAFPackets
    {
        let description = description!
        let byteCount = size.map { $0 - Int64(Self.editCountLength) }
        if !description.isConstantSize {
            guard let table else {
                throw AudioFileStreamFailure(.notOptimized, at: offset, "the CAF packet table (pakt) follows the "
                    + "audio, so packets cannot be cut as they arrive; move it first, e.g. with afconvert, or give "
                    + "the file to a reader that can seek")
            }
            guard table.byteCount <= byteCount ?? .max else {
                throw AudioFileStreamFailure(.invalidFile, at: offset, "the CAF packet table holds more bytes than "
                    + "the data chunk")
            }
        }
        let start = bodyStart + Int64(prefix.count)
        hasAudio = true
        if let byteCount {
            output.announce(.audioDataByteCount, .uint64(UInt64(byteCount)))
            if description.isConstantSize {
                output.announce(.audioDataPacketCount,
                                .uint64(UInt64(byteCount) / UInt64(description.format.bytesPerPacket)))
            }
        }
        output.announceReady(dataOffset: start)
        return CAFPackets(start: start, end: byteCount.map { start + $0 }, format: description.format, table: table)
    }
}
