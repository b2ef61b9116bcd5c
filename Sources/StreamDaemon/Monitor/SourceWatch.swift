import AudioDecoding
import AudioFileStream
import AudioLoudness

/// A silent source's bytes while another has the air: parsed and decoded on the side and judged by the silence
/// rule, until it has had sound for the rule's `back` seconds. It keeps what the stream's parser reads when the
/// source takes the air again: its header (what came before its first packet: an Ogg stream's header pages, a
/// FLAC stream's metadata) and the bytes after its last whole packet, so that the stream goes on with the
/// source's audio of that moment, not with what it sent in silence.
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
    /// Bytes before the first packet, once it came.
    private var header: [UInt8]?
    /// The bytes not yet known to be whole packets, from stream offset `bufferStart`.
    private var buffer: [UInt8] = []
    private var bufferStart: Int64 = 0
    /// Where the first packet parsed starts, and where the last one ends.
    private var firstPacket: Int64?
    private var packetsEnd: Int64 = 0
    private var hasSound = false

    /// A watch by `rule` of a source of `typeHint`'s type (sniffed without one) that is silent so far; `silence`
    /// is told the seconds of its audio that were silence.
    init(rule: SilenceRule, typeHint: AudioFileType?, silence: @escaping (Double) -> Void) {
        levels = LiveLevels(rule: rule, startsSilent: true)
        self.silence = silence
        let handler: AudioFileStream.EventHandler = { [unowned self] event in
            switch event {
            case .property(.fileFormat, .fileType(let type)): fileType = type
            case .packets(let batch):
                if firstPacket == nil { firstPacket = batch.streamOffset }
                // An assembled packet's bytes are a copy: where it ends is not where its bytes do.
                if !batch.isAssembled { packetsEnd = batch.streamOffset + Int64(batch.bytes.count) }
            default: break
            }
            decoder.consume(event)
        }
        parser = (try? AudioFileStream(fileTypeHint: typeHint, indexedPackets: 0, handler: handler))
            ?? (try? AudioFileStream(indexedPackets: 0, handler: handler))
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
        guard !hasSound else { return }
        let samples = pcm.bytes.assumingMemoryBound(to: Float.self)
        try? levels.add(samples, channels: pcm.format.channels, sampleRate: pcm.format.sampleRate) { report in
            silence(report.silentSeconds)
            if report.change == .sounding { hasSound = true }
        }
    }

    /// Keeps the header once the first packet shows where it ends, and of the rest only what follows the last
    /// packet; at most `SourceProbe.maximumBytes`, as a probe.
    private func keepUnparsed() {
        if header == nil, let firstPacket {
            let length = Int(firstPacket - bufferStart)
            let needed = !Self.framed.contains(fileType ?? .mp3) && bufferStart == 0 && length <= SourceProbe.maximumBytes
            header = needed ? Array(buffer.prefix(length)) : []
        }
        var drop = min(Int(packetsEnd - bufferStart), buffer.count)
        if buffer.count - max(drop, 0) > SourceProbe.maximumBytes { drop = buffer.count - SourceProbe.maximumBytes / 2 }
        guard drop > 0 else { return }
        buffer.removeFirst(drop)
        bufferStart += Int64(drop)
    }
}
