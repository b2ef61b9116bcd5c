import AudioFileStream
import Logging
import MPEGDecoder
import NIOCore

/// One stream's processing: bytes in, parsed once, decoded only while a subscriber wants PCM, into the hubs.
///
/// Confined to its stream's event loop.
final class StreamPipeline {
    let hubs: HubGroup
    private let allocator = ByteBufferAllocator()
    let statistics = StreamStatistics()
    private let logger: Logger
    private var parser: AudioFileStream?
    private var decoder: MPEGDecoder?
    /// Frames of audio in the packets so far: the next packet's timestamp.
    private var timestamp: Int64 = 0
    /// Timestamp of the next PCM frame, counted from where the decoder started.
    private var pcmTimestamp: Int64 = 0
    /// Offset of the packets being decoded, for overflow reports on PCM.
    private var decodingOffset: Int64 = 0

    init(hubs: HubGroup, logger: Logger) {
        self.hubs = hubs
        self.logger = logger
    }

    /// Seconds of audio parsed so far, for pacing a file.
    var audioSeconds: Double { statistics.audioSeconds }

    /// Parses the next chunk of the source and hands the results to the subscribers.
    /// - Returns: false when the stream cannot go on (its bytes are not a format we read).
    func ingest(_ bytes: [UInt8], discontinuity: Bool) -> Bool {
        statistics.bytesIn += bytes.count
        defer { hubs.flush() }
        do {
            try ensureParser().parse(bytes, discontinuity: discontinuity)
            return true
        } catch {
            logger.error("cannot parse the stream: \(error)")
            return false
        }
    }

    /// Ends the stream: the parser's last packets, then the end event.
    func finish() {
        do {
            try parser?.finish()
        } catch {
            logger.error("cannot parse the end of the stream: \(error)")
        }
        hubs.send(.end(WireEncoding.message(.event, json: EventJSON.end, allocator: allocator)))
        hubs.flush()
    }

    private func ensureParser() throws -> AudioFileStream {
        if let parser { return parser }
        let parser = try AudioFileStream { [unowned self] event in handle(event) }
        self.parser = parser
        return parser
    }

    /// Publishes the event, then decodes it if PCM is wanted: a batch's packets go out before its PCM.
    private func handle(_ event: AudioFileStreamEvent) {
        defer { updateDecoder(with: event) }
        switch event {
        case .packets(let batch):
            publish(batch)
        case .property(let id, let value):
            statistics.note(id, value)
            hubs.send(.property(id, message(event)))
        case .metadata:
            hubs.send(.metadata(message(event)))
        case .discontinuity(let discontinuity):
            statistics.note(discontinuity)
            hubs.send(.event(message(event)))
        }
    }

    private func message(_ event: AudioFileStreamEvent) -> ByteBuffer {
        WireEncoding.message(.event, json: EventJSON.objects(for: event)[0], allocator: allocator)
    }

    private func publish(_ batch: PacketBatch) {
        let sampleRate = Int(batch.format.sampleRate)
        for packet in EventJSON.packets(in: batch) {
            let start = Int(packet.offset - batch.streamOffset)
            let bytes = UnsafeRawBufferPointer(rebasing: batch.bytes[start..<start + Int(packet.size)])
            let frames = Int(packet.frames)
            let buffer = WireEncoding.packet(
                bytes, offset: packet.offset, timestamp: timestamp, frames: frames, allocator: allocator)
            let audio = AudioSpan(offset: packet.offset, bytes: bytes.count, frames: frames, sampleRate: sampleRate)
            hubs.send(.packet(QueuedMessage(buffer: buffer, audio: audio)))
            timestamp += Int64(frames)
            statistics.note(packetOf: bytes.count, frames: frames, sampleRate: sampleRate)
        }
    }

    /// Starts the decoder when PCM is wanted and stops it when not; gives it the event while it runs.
    private func updateDecoder(with event: AudioFileStreamEvent) {
        guard !hubs.demand.isEmpty else {
            decoder = nil
            return
        }
        if decoder == nil {
            do {
                decoder = try MPEGDecoder(sampleFormat: .float32) { [unowned self] in decoded($0) }
                pcmTimestamp = timestamp
            } catch {
                logger.error("cannot start the decoder: \(error)")
                return
            }
        }
        if case .packets(let batch) = event { decodingOffset = batch.streamOffset }
        decoder?.consume(event)
    }

    private func decoded(_ event: DecoderEvent) {
        switch event {
        case .pcm(let pcm):
            var messages: [WirePCMEncoding: QueuedMessage] = [:]
            for encoding in hubs.demand.encodings {
                let audio = AudioSpan(
                    offset: decodingOffset, bytes: pcm.bytes.count / 4 * encoding.bytesPerSample, frames: pcm.frames,
                    sampleRate: pcm.format.sampleRate)
                let buffer = WireEncoding.pcm(
                    floats: pcm.bytes, sampleRate: pcm.format.sampleRate, channels: pcm.format.channels,
                    timestamp: pcmTimestamp, encoding: encoding, allocator: allocator)
                messages[encoding] = QueuedMessage(buffer: buffer, audio: audio)
            }
            hubs.send(.pcm(messages))
            pcmTimestamp += Int64(pcm.frames)
        case .error(let error):
            statistics.decodeErrors += 1
            logger.warning("decode error: \(error)")
        case .format:
            break
        }
    }
}
