import AudioFileStream

/// Writes FLAC frames as a native FLAC file (RFC 9639): `fLaC`, STREAMINFO, the tags as a VORBIS_COMMENT block
/// and a PICTURE block, some padding, then the frames, numbered from 0 for this file with their CRCs made again.
///
/// FLAC frames decode on their own, so pieces partition the frames and trims are always 0. Until `finish`,
/// STREAMINFO states the cookie's rate, channels, depth and block sizes with every total unknown (0), so a file
/// cut short still reads to its last whole frame; `finish` states the totals, the frame sizes and the samples' MD5,
/// and the frames' own rate, channels and depth where they differ from the cookie's (a stream that changed
/// format mid-way keeps its first STREAMINFO). A file holds frames of one format.
public struct FLACWriter: ContainerWriter {
    /// Makes the digest of the file's decoded samples; without one STREAMINFO states zeros.
    private let samplesDigest: (any FLACSamplesDigest)?
    /// Whether every frame is written with a variable block size (`WriterOptions.numbersFLACFramesBySample`).
    private let variableBlockSize: Bool

    /// Where STREAMINFO's body starts in the target.
    private let streamInfoOffset: Int64
    /// STREAMINFO as first written: the cookie's, or one made from the DataFormat, totals unknown.
    private let initialStreamInfo: FLACStreamInfo
    private var frameCount: Int64 = 0
    private var sampleCount: Int64 = 0
    /// The block sizes of every frame but the last, which §8.2's minimum leaves out, and the last one's.
    private var blockSizes: ClosedRange<Int>?
    private var lastBlockSize: Int?
    private var frameSizes: ClosedRange<Int>?
    /// The rate, channels and depth the first frame states: every frame's.
    private var frameFormat: FrameFormat?
    /// A rewritten header, reused from frame to frame.
    private var header: [UInt8] = []

    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
                to target: inout some WriteTarget) throws {
        try self.init(track: track, tags: tags, leadingTrim: leadingTrim, options: WriterOptions(), to: &target)
    }

    /// Starts a FLAC file of `track`, whose cookie is STREAMINFO's 34-byte body (or empty for frames without
    /// one, when the DataFormat states the depth), numbering frames and stating the digest as `options` say.
    /// - Throws: `WriteError.unsupportedFormat` for another codec, a cookie that is no STREAMINFO, or a
    ///   `leadingTrim`; the target's error.
    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, options: WriterOptions,
                to target: inout some WriteTarget) throws {
        samplesDigest = options.flacSamplesDigest
        variableBlockSize = options.numbersFLACFramesBySample
        guard track.format.formatID == AudioFormatID.flac else {
            throw WriteError.unsupportedFormat(".flac files hold FLAC, not \(track.format.codecName)")
        }
        guard leadingTrim == 0 else { throw WriteError.unsupportedFormat("a FLAC file cannot state a leading trim") }
        initialStreamInfo = try Self.streamInfo(of: track)
        var comments = tags
        comments.artwork = nil
        var blocks = [FLACMetadataBlock(type: .vorbisComment, body: VorbisCommentWriter.block(tags: comments))]
        if let artwork = tags.artwork, let picture = FLACPictureWriter.body(artwork) {
            blocks.append(FLACMetadataBlock(type: .picture, body: picture))
        }
        blocks.append(.padding(Self.paddingLength))
        streamInfoOffset = target.size + Int64(FLACMetadataBlock.streamInfoOffset)
        try target.append(FLACMetadataBlock.streamHeader(streamInfo: initialStreamInfo.bytes, followedBy: blocks))
        header.reserveCapacity(FLACFrameHeader.maximumLength)
    }

    /// The depth of the samples: the frames' own, else STREAMINFO's.
    private var bitsPerSample: Int {
        frameFormat?.bitsPerSample ?? initialStreamInfo.bitsPerSample
    }

    /// Room for tags edited later: a small picture, or many comments.
    static let paddingLength = 1024

    /// Appends one FLAC frame, header included, as the parser gives it; `frames` is its block size.
    /// - Throws: `WriteError.unsupportedFormat` when the packet is no whole FLAC frame (its CRC-16 fails), is of
    ///   another rate, channel count or depth than the file's first frame, or the file would pass the 36 bits of
    ///   samples STREAMINFO counts; the target's error.
    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64,
                                to target: inout some WriteTarget) throws {
        // A damaged frame is refused: its CRCs, made again, would vouch for it.
        guard let source = FLACFrameHeader(bytes: packet, at: 0), packet.count >= source.length + 2,
              Int64(source.blockSize) == frames, FrameCRC.crc16(0, packet, from: 0, to: packet.count) == 0 else {
            throw WriteError.unsupportedFormat("a \(packet.count)-byte packet of \(frames) frames is no FLAC frame")
        }
        let format = FrameFormat(source)
        if let first = frameFormat, first != format {
            throw WriteError.unsupportedFormat("a FLAC file holds frames of one format: \(format) follows "
                + "\(first); a new file must start")
        }
        frameFormat = format
        guard sampleCount + frames <= FLACCodedNumber.largest else {
            throw WriteError.unsupportedFormat("a FLAC file holds fewer than 2^36 samples")
        }
        // §9.1.5: a variable-blocksize frame's header numbers its first sample, a fixed-blocksize one's the frame.
        let isVariable = variableBlockSize || source.isVariableBlockSize
        let number = isVariable ? sampleCount : frameCount
        let frameLength: Int
        if number == source.number, isVariable == source.isVariableBlockSize {
            try target.append(packet)
            frameLength = packet.count
        } else {
            frameLength = try appendRenumbered(packet, header: source, number: number, to: &target)
        }
        if let lastBlockSize { blockSizes = Self.widen(blockSizes, with: lastBlockSize) }
        lastBlockSize = source.blockSize
        frameSizes = Self.widen(frameSizes, with: frameLength)
        frameCount += 1
        sampleCount += frames
        samplesDigest?.add(packet, frames: frames)
    }

    /// Rewrites STREAMINFO with the totals, block and frame sizes and the samples' digest.
    /// - Throws: `WriteError.unsupportedFormat` for a `trailingTrim`; the target's error.
    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        guard trailingTrim == 0 else { throw WriteError.unsupportedFormat("a FLAC file cannot state a trailing trim") }
        try target.overwrite(at: streamInfoOffset, with: finalStreamInfo())
    }

    /// Appends `packet` with its header's number replaced by `number` and its CRC-8 and CRC-16 made again.
    /// - Returns: the frame's new length.
    private mutating func appendRenumbered(_ packet: UnsafeRawBufferPointer, header source: FLACFrameHeader,
                                           number: Int64, to target: inout some WriteTarget) throws -> Int {
        header.removeAll(keepingCapacity: true)
        header += packet[0..<4]
        if variableBlockSize { header[1] |= 0x01 }
        FLACCodedNumber.append(number, to: &header)
        header += packet[(4 + source.numberLength)..<(source.length - 1)]
        let crc8 = header.withUnsafeBytes { FrameCRC.crc8($0) }
        header.append(crc8)
        var crc16 = header.withUnsafeBytes { FrameCRC.crc16(0, $0, from: 0, to: $0.count) }
        crc16 = FrameCRC.crc16(crc16, packet, from: source.length, to: packet.count - 2)
        try target.append(header)
        try target.append(UnsafeRawBufferPointer(rebasing: packet[source.length..<(packet.count - 2)]))
        try withUnsafeBytes(of: crc16.bigEndian) { try target.append($0) }
        return header.count + packet.count - source.length
    }

    /// STREAMINFO as `finish` states it (§8.2).
    private func finalStreamInfo() -> [UInt8] {
        var body = initialStreamInfo.bytes
        guard let lastBlockSize, let frameSizes else { return body }
        // The minimum leaves the last frame out, unless it is the only one.
        let minimumBlockSize = blockSizes?.lowerBound ?? lastBlockSize
        let maximumBlockSize = max(blockSizes?.upperBound ?? 0, lastBlockSize)
        var totals: [UInt8] = []
        totals.append(bigEndian: UInt64(minimumBlockSize), count: 2)
        totals.append(bigEndian: UInt64(maximumBlockSize), count: 2)
        totals.append(bigEndian: UInt64(frameSizes.lowerBound), count: 3)
        totals.append(bigEndian: UInt64(frameSizes.upperBound), count: 3)
        // 20 bits of rate, 3 of channels - 1, 5 of depth - 1, 36 of total samples.
        let rate = UInt64(frameFormat?.sampleRate ?? initialStreamInfo.sampleRate)
        let channels = UInt64(frameFormat?.channels ?? initialStreamInfo.channelCount)
        totals.append(bigEndian: rate << 44 | (channels - 1) << 41 | UInt64(bitsPerSample - 1) << 36
                          | UInt64(sampleCount), count: 8)
        totals += samplesDigest?.finish().digest ?? [UInt8](repeating: 0, count: 16)
        body.replaceSubrange(0..<totals.count, with: totals)
        return body
    }

    private static func widen(_ range: ClosedRange<Int>?, with value: Int) -> ClosedRange<Int> {
        guard let range else { return value...value }
        return min(range.lowerBound, value)...max(range.upperBound, value)
    }

    /// STREAMINFO's body before any frame: the cookie's, or one made from the DataFormat; the totals unknown.
    package static func streamInfo(of track: TrackFormat) throws -> FLACStreamInfo {
        let body: [UInt8]
        if track.cookie.isEmpty {
            body = try madeStreamInfo(track.format)
        } else {
            guard track.cookie.count == FLACStreamInfo.length,
                  let stated = track.cookie.withUnsafeBytes({ FLACStreamInfo($0) }), stated.sampleRate > 0,
                  stated.minimumBlockSize >= 16, stated.maximumBlockSize >= stated.minimumBlockSize else {
                throw WriteError.unsupportedFormat("the FLAC cookie is no STREAMINFO")
            }
            body = track.cookie
        }
        // Frame sizes, total samples and MD5 unknown until `finish`.
        var unknown = body
        unknown.replaceSubrange(4..<10, with: [UInt8](repeating: 0, count: 6))
        unknown[13] &= 0xF0
        unknown.replaceSubrange(14..<34, with: [UInt8](repeating: 0, count: 20))
        return unknown.withUnsafeBytes { FLACStreamInfo($0)! }
    }

    /// STREAMINFO for frames that came without one, from the DataFormat, whose flags state the depth.
    private static func madeStreamInfo(_ format: AudioStreamBasicDescription) throws -> [UInt8] {
        let depths: [UInt32: UInt64] = [1: 16, 2: 20, 3: 24, 4: 32]
        let rate = UInt64(format.sampleRate)
        guard let bits = depths[format.formatFlags], rate > 0, rate < 1 << 20, Double(rate) == format.sampleRate,
              (1...8).contains(format.channelsPerFrame) else {
            throw WriteError.unsupportedFormat("FLAC frames without STREAMINFO need a DataFormat stating the rate, "
                + "channels and a depth of 16, 20, 24 or 32 bits")
        }
        var body: [UInt8] = []
        // The largest block sizes FLAC allows: the frames state their own.
        body.append(bigEndian: 16, count: 2)
        body.append(bigEndian: 0xFFFF, count: 2)
        body += [UInt8](repeating: 0, count: 6)
        body.append(bigEndian: rate << 44 | UInt64(format.channelsPerFrame - 1) << 41 | (bits - 1) << 36, count: 8)
        body += [UInt8](repeating: 0, count: 16)
        return body
    }

    /// The tags as a VORBIS_COMMENT body (Vorbis I §5.2.1).
}

/// What a FLAC frame header states of its samples; nil where it defers to STREAMINFO.
private struct FrameFormat: Equatable, CustomStringConvertible {
    let sampleRate: Int?
    let channels: Int
    let bitsPerSample: Int?

    init(_ header: FLACFrameHeader) {
        sampleRate = header.sampleRate
        channels = header.channelCount
        bitsPerSample = header.bitsPerSample
    }

    var description: String {
        "\(sampleRate.map { "\($0) Hz" } ?? "STREAMINFO's rate"), \(channels) channels, "
            + (bitsPerSample.map { "\($0) bits" } ?? "STREAMINFO's depth")
    }
}
