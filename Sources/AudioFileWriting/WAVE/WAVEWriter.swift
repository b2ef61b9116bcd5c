import AudioFileStream

/// Writes linear PCM as a WAVE file, which becomes RF64 (EBU Tech 3306) at `finish` when it passes 4 GiB.
///
/// The file is `RIFF`/`WAVE`, a `JUNK` chunk holding the place of RF64's `ds64`, `fmt `, the tags as `LIST`/`INFO`
/// and `data`. While it is written, the RIFF and `data` sizes are 0, which ffmpeg and our parser read as "to the
/// end of the file", so a file cut short by a crash still reads to its last whole frame. WAVE states no trims:
/// pieces partition the frames.
public struct WAVEWriter: ContainerWriter {
    /// The largest RIFF size a 32-bit field states; past it, the file is RF64.
    static let largestRIFFSize: Int64 = 0xFFFF_FFFF

    private let samples: WAVESampleFormat
    /// Where the file starts in the target, and its `data` chunk's header.
    private let fileOffset: Int64
    private let dataHeaderOffset: Int64
    /// The RIFF size past which `finish` makes the file RF64: `largestRIFFSize`, lowered by tests.
    private let riffSizeLimit: Int64
    private var dataSize: Int64 = 0
    /// Samples changed on their way into the file (byte order, sign), reused from packet to packet.
    private var converted: [UInt8] = []

    /// Starts a WAVE file of `track`'s linear PCM, tagged with `tags`.
    /// - Throws: `WriteError.unsupportedFormat` for samples WAVE cannot hold (`WAVESampleFormat`) or a
    ///   `leadingTrim`; the target's error.
    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
                to target: inout some WriteTarget) throws {
        try self.init(track: track, tags: tags, leadingTrim: leadingTrim, to: &target,
                      riffSizeLimit: Self.largestRIFFSize)
    }

    /// A writer that makes the file RF64 past `riffSizeLimit` bytes of RIFF size, so that tests need not write
    /// 4 GiB.
    init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget,
         riffSizeLimit: Int64) throws {
        guard leadingTrim == 0 else { throw WriteError.unsupportedFormat("a WAVE file cannot state a leading trim") }
        samples = try WAVESampleFormat(track.format)
        self.riffSizeLimit = riffSizeLimit
        fileOffset = target.size
        var header = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        header += Self.chunk("JUNK", body: [UInt8](repeating: 0, count: Self.dataSize64Length))
        let channelMask = track.channelLayout?.waveChannelMask ?? 0
        header += Self.chunk("fmt ", body: samples.formatChunkBody(channelMask: channelMask))
        header += RIFFInfoWriter.chunk(tags) ?? []
        dataHeaderOffset = fileOffset + Int64(header.count)
        header += Array("data".utf8) + [0, 0, 0, 0]
        try target.append(header)
    }

    /// Appends interleaved frames: `frames` of them, in `packet`'s bytes.
    /// - Throws: `WriteError.unsupportedFormat` when the bytes are not `frames` whole frames; the target's error.
    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64,
                                to target: inout some WriteTarget) throws {
        guard Int64(packet.count) == frames * Int64(samples.bytesPerFrame) else {
            throw WriteError.unsupportedFormat("\(packet.count) bytes are not \(frames) frames of "
                + "\(samples.bytesPerFrame) bytes")
        }
        try samples.stored(packet, using: &converted) { try target.append($0) }
        dataSize += Int64(packet.count)
    }

    /// Pads the `data` chunk to an even length and states the sizes: in the RIFF header's fields, or, past
    /// 4 GiB, in a `ds64` chunk written over the `JUNK` one, the file then being RF64.
    /// - Throws: `WriteError.unsupportedFormat` for a `trailingTrim`; the target's error.
    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        guard trailingTrim == 0 else { throw WriteError.unsupportedFormat("a WAVE file cannot state a trailing trim") }
        if dataSize % 2 == 1 { try target.append([0]) }
        let riffSize = target.size - fileOffset - 8
        guard riffSize > riffSizeLimit else {
            try target.overwrite(at: fileOffset + 4, with: [UInt8](littleEndian: UInt32(truncatingIfNeeded: riffSize)))
            try target.overwrite(at: dataHeaderOffset + 4, with: [UInt8](littleEndian: UInt32(truncatingIfNeeded: dataSize)))
            return
        }
        var dataSize64: [UInt8] = []
        for size in [riffSize, dataSize, dataSize / Int64(samples.bytesPerFrame)] {
            dataSize64.append(littleEndian: UInt64(size), count: 8)
        }
        dataSize64.append(littleEndian: 0, count: 4)
        try target.overwrite(at: fileOffset, with: Array("RF64".utf8) + [UInt8](littleEndian: UInt32(truncatingIfNeeded: Self.largestRIFFSize)))
        try target.overwrite(at: fileOffset + 12, with: Self.chunk("ds64", body: dataSize64))
        try target.overwrite(at: dataHeaderOffset + 4, with: [UInt8](littleEndian: UInt32(truncatingIfNeeded: Self.largestRIFFSize)))
    }

    /// EBU Tech 3306's `ds64` body without a table: the RIFF and `data` sizes, the sample count, the table's length.
    private static let dataSize64Length = 28

    private static func chunk(_ id: String, body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + [UInt8](littleEndian: UInt32(truncatingIfNeeded: body.count)) + body + (body.count % 2 == 1 ? [0] : [])
    }
}
