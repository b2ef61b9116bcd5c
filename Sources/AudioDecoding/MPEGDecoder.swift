import AudioFileStream

/// Decodes the packets of an MPEG audio stream (Layers I–III, MPEG-1/2/2.5) to interleaved PCM with libmpg123.
///
/// Give it every event of an `AudioFileStream` with `consume(_:)`: packets are decoded, each PacketTableInfo
/// starts a gapless segment whose priming and remainder frames are trimmed, and a discontinuity resets the
/// decoder so no stale bit reservoir is used. It calls the handler synchronously with the PCM format (before
/// the first PCM and whenever the stream changes rate or channels), the PCM, and decode errors, after which
/// decoding goes on with the next packets. Frames whose CRC fails (Layers I and III) are reported and left out;
/// other damage libmpg123 conceals on its own. The output is the same as the `mpg123` program's for the same
/// input and encoding.
public final class MPEGDecoder: PacketDecoder {
    /// Receives the decoder's events in stream order.
    public typealias EventHandler = (DecoderEvent) -> Void

    public let sampleFormat: PCMSampleFormat
    private let handle: MPG123Handle
    private var output: PCMOutput
    private var isOpen = false
    /// The free-format frame size the open decoder was told, or nil.
    private var openFreeFormatSize: Int?
    /// The codec of the last packets left out, reported once.
    private var refusedFormat: FourCharCode?

    /// - Throws: `DecodeError` when libmpg123 cannot create a decoder.
    public init(sampleFormat: PCMSampleFormat = .int16, handler: @escaping EventHandler) throws {
        self.sampleFormat = sampleFormat
        output = PCMOutput(handler: handler)
        handle = try MPG123Handle(sampleFormat: sampleFormat)
    }

    /// Takes the next event of the parser: decodes packets and follows gapless segments and discontinuities.
    public func consume(_ event: AudioFileStreamEvent) {
        switch event {
        case .packets(let batch) where Self.decodes(batch.format.formatID):
            refusedFormat = nil
            decode(batch)
        case .packets(let batch):
            // Another codec (AAC, AC-3): said once per change, not once per packet.
            guard refusedFormat != batch.format.formatID else { return }
            refusedFormat = batch.format.formatID
            output.report(.error(DecodeError(
                "no MPEG audio decoder for \(batch.format.codecName) packets; they are left out")))
        case .property(.packetTableInfo, .packetTableInfo(let table)):
            output.trimmer.startSegment(table)
        case .discontinuity:
            isOpen = false
            output.trimmer.stopTrimming()
        case .property, .metadata, .warning:
            break
        }
    }

    /// Fed whole frames, libmpg123 holds nothing back at the end.
    public func finish() {}

    /// Whether libmpg123 decodes packets of `formatID` (MPEG-1/2/2.5 Layers I–III).
    public static func decodes(_ formatID: FourCharCode) -> Bool {
        formatID == AudioFormatID.mpegLayer1 || formatID == AudioFormatID.mpegLayer2
            || formatID == AudioFormatID.mpegLayer3
    }

    /// Feeds the batch's packets to libmpg123, leaving out (and reporting) those whose CRC does not match, and
    /// starting the decoder afresh when a free-format stream changes its frame size (libmpg123 is told it once).
    private func decode(_ batch: PacketBatch) {
        var runStart = 0
        for packet in batch.packets {
            let start = Int(packet.offset - batch.streamOffset)
            let frame = packet.bytes
            let header = MPEGFrameHeader(bytes: frame, at: 0)
            let freeFormatSize = header.flatMap { Self.freeFormatFrameSize(of: $0, length: frame.count) }
            if !isOpen || freeFormatSize != openFreeFormatSize {
                decode(UnsafeRawBufferPointer(rebasing: batch.bytes[runStart..<start]))
                handle.open(freeFormatFrameSize: freeFormatSize)
                (isOpen, openFreeFormatSize, runStart) = (true, freeFormatSize, start)
            }
            guard header?.crcMatches(frame: frame) == false else { continue }
            decode(UnsafeRawBufferPointer(rebasing: batch.bytes[runStart..<start]))
            output.report(.error(DecodeError(
                "CRC mismatch in the packet at offset \(packet.offset); skipped")))
            runStart = start + frame.count
        }
        decode(UnsafeRawBufferPointer(rebasing: batch.bytes[runStart...]))
    }

    /// Feeds whole frames and outputs everything they decode to.
    private func decode(_ frames: UnsafeRawBufferPointer) {
        guard !frames.isEmpty else { return }
        do {
            try handle.feed(frames)
        } catch {
            report(error)
            return
        }
        while true {
            switch handle.decodeFrame() {
            case .pcm(let bytes):
                output.emit(bytes)
            case .newFormat(let sampleRate, let channels):
                output.announce(PCMFormat(sampleRate: sampleRate, channels: channels, sampleFormat: sampleFormat))
            case .needMore:
                return
            case .failed(let error):
                report(error)
                return
            }
        }
    }

    /// Reports a failure and starts afresh with the next packets, dropping what the decoder held.
    private func report(_ error: Error) {
        output.report(.error(error as? DecodeError ?? DecodeError("\(error)")))
        isOpen = false
    }

    /// The frame size libmpg123 needs for a free-format frame (bitrate index 0) of `length` bytes: without its
    /// padding slot and its 4-byte header. Nil for other frames.
    private static func freeFormatFrameSize(of header: MPEGFrameHeader, length: Int) -> Int? {
        header.isFreeFormat ? length - (header.hasPadding ? header.slotSize : 0) - 4 : nil
    }
}
