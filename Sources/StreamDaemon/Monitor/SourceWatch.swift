import AudioDecoding
import AudioFileStream
import AudioLoudness

/// A silent source's bytes while another has the air: parsed and decoded on the side and judged by the silence
/// rule, until it has had sound for the rule's `back` seconds. It starts from the start of the source's
/// connection (its header: an Ogg stream's header pages, a FLAC stream's metadata), which it reads but does not
/// judge, then takes the source's bytes from where they are. It keeps what the stream's parser reads when the
/// source takes the air again: that header, and the bytes after its last whole packet, so that the stream goes
/// on with the source's audio of that moment, not with what it sent in silence.
final class SourceWatch {
    /// Types whose stream may start at any frame: what came before the first one (an ID3 tag, which would end in
    /// the first frame's own framing) is not needed.
    private static let framed: Set<AudioFileType> = [.mp1, .mp2, .mp3, .adts, .ac3, .eac3]

    private var parser: AudioFileStream?
    private lazy var decoder = StreamDecoder(sampleFormat: .float32) { [unowned self] event in
        if case .pcm(let pcm) = event { measure(pcm) }
    }
    private let levels: LiveLevels
    /// Told the seconds of audio that were silence.
    private let silence: (Double) -> Void
    private var fileType: AudioFileType?
    /// The bytes before the audio, once the parser knows where it starts; empty for a framed type, or when the
    /// connection's start did not hold them.
    private var header: [UInt8]?
    /// The bytes not yet known to be whole packets, from stream offset `bufferStart`.
    private var buffer: [UInt8] = []
    private var bufferStart: Int64 = 0
    /// Where the audio starts, as the parser says it (DataOffset) or its first packet shows it, and where the
    /// last packet parsed ends.
    private var audioStart: Int64?
    private var packetsEnd: Int64 = 0
    private var hasSound = false
    /// Whether the decoded audio is judged: not that of the connection's start.
    private var judges = false

    /// A watch by `rule` of a source of `typeHint`'s type (sniffed without one) that is silent so far, whose
    /// connection began with `start`; `silence` is told the seconds of its audio that were silence.
    init(rule: SilenceRule, typeHint: AudioFileType?, start: [UInt8], silence: @escaping (Double) -> Void) {
        levels = LiveLevels(rule: rule)
        levels.assume(silent: true)
        self.silence = silence
        let handler: AudioFileStream.EventHandler = { [unowned self] event in
            switch event {
            case .property(.fileFormat, .fileType(let type)): fileType = type
            case .property(.dataOffset, .int64(let offset)): audioStart = audioStart ?? offset
            case .packets(let batch):
                if audioStart == nil { audioStart = batch.streamOffset }
                // An assembled packet's bytes are a copy: where it ends is not where its bytes do.
                if !batch.isAssembled { packetsEnd = batch.streamOffset + Int64(batch.bytes.count) }
            default: break
            }
            decoder.consume(event)
        }
        parser = AudioFileStream.onTheSide(typeHint: typeHint, handler: handler)
        readStart(start)
    }

    /// Reads the connection's start for its header, then drops it: the source's bytes from now on do not follow.
    private func readStart(_ start: [UInt8]) {
        _ = start.withUnsafeBytes { take($0) }
        bufferStart += Int64(buffer.count)
        buffer = []
        try? parser?.markDiscontinuity(.reconnect)
        judges = true
    }

    /// Parses, decodes and judges the source's next bytes.
    /// - Returns: whether the source has had sound long enough to take the air again.
    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let parser, !hasSound else { return hasSound }
        buffer.append(contentsOf: bytes)
        do {
            try parser.parse(bytes)
        } catch {
            // Not audio the parser reads any more: never sound again, until the source connects anew.
            self.parser = nil
            buffer = []
            return false
        }
        keepUnparsed()
        return hasSound
    }

    /// What the stream reads when the source takes the air: its header, then its bytes after its last packet.
    var kept: [UInt8] { (header ?? []) + buffer }

    private func measure(_ pcm: PCMBuffer) {
        guard judges, !hasSound else { return }
        let samples = pcm.bytes.assumingMemoryBound(to: Float.self)
        try? levels.add(samples, channels: pcm.format.channels, sampleRate: pcm.format.sampleRate) { report in
            silence(report.silentSeconds)
            if report.change == .sounding { hasSound = true }
        }
    }

    /// Keeps the header once the parser knows where it ends, and of the rest only what follows the last packet;
    /// at most `SourceProbe.maximumBytes`, as a probe.
    private func keepUnparsed() {
        if header == nil, let audioStart {
            let length = Int(audioStart - bufferStart)
            let needed = !Self.framed.contains(fileType ?? .mp3) && bufferStart == 0 && length <= buffer.count
            header = needed ? Array(buffer.prefix(length)) : []
        }
        var drop = min(Int(packetsEnd - bufferStart), buffer.count)
        if buffer.count - max(drop, 0) > SourceProbe.maximumBytes { drop = buffer.count - SourceProbe.maximumBytes / 2 }
        guard drop > 0 else { return }
        buffer.removeFirst(drop)
        bufferStart += Int64(drop)
    }
}
