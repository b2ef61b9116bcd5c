import AudioDecoding
import AudioFileStream
import AudioStreamProtocol
import Logging
import NIOCore

/// A stream's decoding: a decoder runs only while a subscriber wants PCM or the stream's sound is monitored, and
/// what it gives is measured and goes out in each format wanted, as messages handed to `send`.
///
/// Confined to its stream's event loop, as the pipeline that owns it.
final class PCMStage {
    private let hubs: HubGroup
    private let statistics: StreamStatistics
    private let logger: Logger
    private let allocator: ByteBufferAllocator
    private let send: (HubMessage) -> Void
    /// The stream's sound, measured on what the decoder gives, when it is monitored.
    private let levels: StreamLevels?
    private var decoder: StreamDecoder?
    /// Timestamp of the next PCM frame, counted from where the decoder started.
    private var timestamp: Int64 = 0
    /// Offset of the packets being decoded, for overflow reports on PCM.
    private var decodingOffset: Int64 = 0
    /// The decoded PCM in the formats subscribers want.
    private var delivery: PCMDelivery

    init(hubs: HubGroup, statistics: StreamStatistics, levels: StreamLevels?, logger: Logger,
         allocator: ByteBufferAllocator, send: @escaping (HubMessage) -> Void) {
        self.hubs = hubs
        self.levels = levels
        self.statistics = statistics
        self.logger = logger
        self.allocator = allocator
        self.send = send
        delivery = PCMDelivery(allocator: allocator)
    }

    /// Starts the decoder when PCM is wanted (or the sound monitored) and stops it when not; gives it `event`
    /// while it runs. A decoder started now begins its PCM at `streamTimestamp`, the frames of the stream's
    /// packets so far, and learns the codec from what `parser` announced.
    func update(with event: AudioFileStreamEvent, streamTimestamp: Int64, parser: AudioFileStream?) {
        guard !hubs.demand.isEmpty || levels != nil else {
            if decoder != nil { _ = delivery.finish(at: decodingOffset) }
            decoder = nil
            return
        }
        let decoder = self.decoder ?? start(at: streamTimestamp, parser: parser)
        if case .packets(let batch) = event { decodingOffset = batch.streamOffset }
        decoder.consume(event)
    }

    /// A playlist's segment is decoded afresh, trimmed by its own PacketTableInfo alone; its PCM follows the last
    /// segment's, without a gap.
    func restart(parser: AudioFileStream?) {
        guard let decoder else { return }
        decoder.finish()
        _ = makeDecoder(parser: parser)
    }

    /// The stream ends: the decoder's last PCM goes out.
    func finish() {
        decoder?.finish()
        sendPCM(delivery.finish(at: decodingOffset))
    }

    /// A decoder for a stream already under way. Its PacketTableInfo is not replayed, since positions in the
    /// stream's segment are not known from the middle.
    private func start(at streamTimestamp: Int64, parser: AudioFileStream?) -> StreamDecoder {
        timestamp = streamTimestamp
        return makeDecoder(parser: parser)
    }

    private func makeDecoder(parser: AudioFileStream?) -> StreamDecoder {
        let decoder = StreamDecoder(sampleFormat: .float32) { [unowned self] in decoded($0) }
        for id in [AudioFileStreamPropertyID.dataFormat, .magicCookieData] {
            if let value = try? parser?.property(id) { decoder.consume(.property(id, value)) }
        }
        self.decoder = decoder
        return decoder
    }

    private func decodeFailed(_ error: DecodeError) {
        statistics.noteDecodeError()
        logger.warning("decode error: \(error)")
    }

    private func sendPCM(_ messages: [PCMRequest: [QueuedMessage]]) {
        if !messages.isEmpty { send(.pcm(messages)) }
    }

    private func decoded(_ event: DecoderEvent) {
        switch event {
        case .pcm(let pcm):
            levels?.measure(pcm, send: send)
            sendPCM(delivery.messages(
                for: pcm, at: decodingOffset, timestamp: timestamp, requests: hubs.demand.requests,
                report: decodeFailed))
            timestamp += Int64(pcm.frames)
        case .error(let error):
            decodeFailed(error)
        case .unsupportedFormat(let formatID):
            let measured = levels == nil ? "" : ", and their sound is not measured"
            logger.warning(
                "no decoder for \(AudioFormatID.name(of: formatID)) packets: PCM subscribers get none of them\(measured)")
            let json = EventJSON.unsupportedDataFormat(formatID)
            send(.pcmEvent(WireEncoding.message(.event, json: json, allocator: allocator)))
        case .format(let format):
            // HE-AAC's output format differs from its DataFormat's, and only decoding shows it when unsignalled.
            guard statistics.note(decodedFormat: format) else { return }
            let property = EventJSON.decodedFormatProperty(sampleRate: format.sampleRate, channels: format.channels)
            send(.decodedFormat(WireEncoding.message(.event, json: property, allocator: allocator)))
        }
    }
}
