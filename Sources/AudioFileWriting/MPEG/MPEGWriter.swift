import AudioFileStream

/// MPEG audio as `.mp3`, `.mp2` or `.mp1`: an ID3v2.4 tag, then the stream's frames as they are.
///
/// A Layer III file is led by a Xing frame (`Info` when every frame has the first one's bit rate) built on the
/// stream's first header, which `finish` fills in: frame and byte counts, a table of contents, and a LAME tag
/// whose delay and padding state the trims (decoders skip `delay + 529` frames at the start and drop
/// `padding - 529` at the end; 12 bits each, so `trailingTrim` may be 0…3,566). A `leadingTrim` below 529 (a stream from its first frame, of which decoders skip nothing) cannot be said in a LAME tag: the
/// frame then has none, and the trailing trim is not said either. Until `finish`, the frame states no counts and
/// no trailing trim, so a file cut short still reads as the frames it holds.
///
/// A cut's lead-in may be longer than the LAME tag can trim: at low bit rates the bit reservoir reaches back over
/// many frames. The packets only the reservoir needs are folded into one frame of silence that carries its bytes
/// (`BitReservoirFrame`), and the leading trim stated is shortened by as much.
///
/// Layers I and II have no such frame: FFmpeg, mpg123 and our parser read Xing and LAME tags only in Layer III
/// (FFmpeg would decode one there as a frame of audio), so their files cannot state trims and partition the
/// stream's frames.
public struct MPEGWriter: ContainerWriter {
    private let layer: Int
    /// The leading trim the file states: the one given, less the packets folded into the reservoir's frame.
    private let leadingTrim: Int64
    /// Where the Xing frame starts: after the ID3v2 tag.
    private let tagFrameOffset: Int64
    /// The first frame's header, which the others must continue.
    private var firstHeader: MPEGFrameHeader?
    private var tagFrame: XingFrame?
    private var reservoir: BitReservoirFrame
    private var packetCount: Int64 = 0
    private var audioBytes: Int64 = 0
    private var isConstantBitRate = true
    private var musicCRC = LAMECRC()
    private var offsets = PacketOffsetSamples()

    /// The decoders' own delay, which the LAME tag's delay and padding leave out.
    private static let decoderDelay: Int64 = 529
    /// The LAME tag's delay and padding have 12 bits each.
    private static let largestTrimField: Int64 = 4095

    public init(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64, to target: inout some WriteTarget) throws {
        switch track.format.formatID {
        case AudioFormatID.mpegLayer1: layer = 1
        case AudioFormatID.mpegLayer2: layer = 2
        case AudioFormatID.mpegLayer3: layer = 3
        default: throw WriteError.unsupportedFormat("MPEG files cannot hold \(track.format.codecName) audio")
        }
        let framesPerPacket = Int64(track.format.framesPerPacket)
        guard layer == 3 ? [576, 1152].contains(framesPerPacket) : framesPerPacket == (layer == 1 ? 384 : 1152) else {
            throw WriteError.unsupportedFormat("Layer \(layer) packets do not hold \(framesPerPacket) frames")
        }
        reservoir = BitReservoirFrame(leadingTrim: layer == 3 ? leadingTrim : 0, framesPerPacket: framesPerPacket)
        let folded = Int64(reservoir.packets)
        self.leadingTrim = leadingTrim - folded * framesPerPacket + (folded > 0 ? framesPerPacket : 0)
        // Folded, a lead-in is at most 2 packets and the frame of silence: its trim fits the LAME tag's delay.
        guard leadingTrim >= 0, layer == 3 || leadingTrim == 0 else {
            throw WriteError.unsupportedFormat("a Layer \(layer) file cannot trim \(leadingTrim) frames at its start")
        }
        try target.append(ID3v2TagWriter().tag(for: tags))
        tagFrameOffset = target.size
    }

    /// Appends one frame of the stream, header included.
    /// - Throws: `WriteError.unsupportedFormat` when `packet` is not a frame of the first one's version, layer
    ///   and rate, or the first Layer III frame is free format (a Xing frame cannot match its length).
    public mutating func append(_ packet: UnsafeRawBufferPointer, frames: Int64, to target: inout some WriteTarget) throws {
        guard packet.count >= 4, let header = MPEGFrameHeader(bytes: packet, at: 0), header.layer == layer,
              firstHeader.map({ header.word & Self.streamMask == $0.word & Self.streamMask }) ?? true
        else { throw WriteError.unsupportedFormat("a packet that is not a Layer \(layer) frame of the stream") }
        if firstHeader == nil, layer == 3 {
            guard let frame = XingFrame(streamHeader: header) else {
                throw WriteError.unsupportedFormat("free-format Layer III cannot be led by a Xing frame")
            }
            try target.append(frame.bytes(isConstantBitRate: true, counts: nil, lame: lameFields(trailingTrim: 0)))
            tagFrame = frame
        }
        let first = firstHeader ?? header
        firstHeader = first
        guard reservoir.isFolding else { return try store(packet, header: header, to: &target) }
        reservoir.fold(packet, header: header)
        guard !reservoir.isFolding else { return }
        guard let silence = reservoir.frame(streamHeader: first) else {
            throw WriteError.unsupportedFormat("no frame of this stream holds its bit reservoir")
        }
        try silence.withUnsafeBytes { try store($0, header: MPEGFrameHeader(bytes: $0, at: 0)!, to: &target) }
    }

    /// Writes one frame of the file and counts it.
    private mutating func store(_ frame: UnsafeRawBufferPointer, header: MPEGFrameHeader,
                                to target: inout some WriteTarget) throws {
        try target.append(frame)
        isConstantBitRate = isConstantBitRate && header.bitrateIndex == firstHeader?.bitrateIndex
        offsets.record(packet: packetCount, offset: audioBytes)
        musicCRC.update(frame)
        packetCount += 1
        audioBytes += Int64(frame.count)
    }

    /// Fills in the Xing frame of a Layer III file; a Layer I or II file is complete as it is.
    /// - Throws: `WriteError.unsupportedFormat` when `trailingTrim` is more than a LAME tag can say, or the file
    ///   passes the 4 GiB its counts can say; the target's error.
    public mutating func finish(trailingTrim: Int64, to target: inout some WriteTarget) throws {
        guard let tagFrame else {
            guard trailingTrim == 0 else {
                throw WriteError.unsupportedFormat("a Layer \(layer) file cannot trim frames at its end")
            }
            return
        }
        guard (0...Self.largestTrimField - Self.decoderDelay).contains(trailingTrim) else {
            throw WriteError.unsupportedFormat("a LAME tag cannot trim \(trailingTrim) frames at the end")
        }
        let totalBytes = Int64(tagFrame.length) + audioBytes
        guard let frames = UInt32(exactly: packetCount), let bytes = UInt32(exactly: totalBytes) else {
            throw WriteError.unsupportedFormat("a Xing frame cannot count \(totalBytes) bytes")
        }
        // Where each percent of the duration starts, from the first audio frame, as LAME's tables begin at 0.
        let tableOfContents = (0..<100).map { percent in
            UInt8(min(offsets.offset(ofPacket: packetCount * Int64(percent) / 100) * 256 / totalBytes, 255))
        }
        let counts = XingFrame.Counts(frames: frames, bytes: bytes, tableOfContents: tableOfContents)
        let frame = tagFrame.bytes(isConstantBitRate: isConstantBitRate, counts: counts,
                                   lame: lameFields(trailingTrim: trailingTrim))
        try target.overwrite(at: tagFrameOffset, with: frame)
    }

    /// The LAME tag's fields for the trims, or nil when the leading trim is less than the decoders' own delay.
    private func lameFields(trailingTrim: Int64) -> XingFrame.LAMEFields? {
        guard leadingTrim >= Self.decoderDelay else { return nil }
        return XingFrame.LAMEFields(
            delay: Int(leadingTrim - Self.decoderDelay), padding: Int(trailingTrim + Self.decoderDelay),
            musicLength: UInt32(truncatingIfNeeded: Int64(tagFrame?.length ?? 0) + audioBytes),
            musicCRC: musicCRC.value)
    }

    /// Version, layer and sample-rate bits: what every frame of one file shares.
    private static let streamMask: UInt32 = 0xFFFE_0C00
}
