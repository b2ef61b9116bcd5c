/// Where format readers put what they find. It keeps the property store and the packet index, gathers
/// consecutive packets of one buffer into a single batch, and delivers events to the client in stream order.
final class ParserOutput {
    private let handler: AudioFileStream.EventHandler
    private(set) var properties: [AudioFileStreamPropertyID: AudioFileStreamPropertyValue] = [:]
    /// Touched once per packet, so the runtime's exclusivity check is skipped: only this class's own methods
    /// reach it, and a handler that re-entered `parse` would still trap on the stream's checked `reader`.
    @exclusivity(unchecked) private var ledger: PacketLedger
    /// True once ReadyToProducePackets was announced.
    private(set) var isReady = false
    /// The Xing/VBRI table of contents of the stream's first segment, for estimated seeks.
    var seekTable: SeekTable?
    /// Every tag's keys merged, the latest value of each key winning.
    private(set) var tags = NormalizedTags()
    /// Set by a format whose headers do not give the stream's bit rate (ADTS, or MPEG audio whose bit rate
    /// varies without a Xing/VBRI average): BitRate is then the running average.
    var measuresBitRate = false
    /// Set once a reader met what it cannot read; the stream throws it and reads nothing more.
    private(set) var failure: AudioFileStreamFailure?
    /// The lengths of the stream's segments so far.
    private(set) var duration = StreamDuration()
    /// InfoDictionary as the stream computes it (tags, bit rate, duration), announced with the measurements.
    var infoDictionary: () -> [String: String] = { [:] }

    /// The DataFormat announced last, which packets batches carry.
    private var format = AudioStreamBasicDescription(sampleRate: 0, formatID: FourCharCode(rawValue: 0),
                                                     framesPerPacket: 0, channelsPerFrame: 0)
    private var buffer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var nextBatchFollowsDiscontinuity = false
    /// The batch being gathered is one packet assembled from pieces.
    private var batchIsAssembled = false

    /// - Parameter indexCapacity: how many packets' offsets the index keeps (`PacketIndex`).
    init(indexCapacity: Int = PacketIndex.defaultCapacity, handler: @escaping AudioFileStream.EventHandler) {
        ledger = PacketLedger(indexCapacity: indexCapacity)
        self.handler = handler
    }

    /// Every packet so far.
    var index: PacketIndex { ledger.index }

    /// Readers report packets by index into `buffer`, whose first byte is at stream offset `offset`.
    func begin(buffer: UnsafeRawBufferPointer, offset: Int64) {
        self.buffer = buffer
        ledger.bufferOffset = offset
    }

    /// The stream offset of `bytes`, which lie in the current buffer.
    func offset(of bytes: UnsafeRawBufferPointer) -> Int64 {
        guard let start = bytes.baseAddress, let bufferStart = buffer.baseAddress else { return ledger.bufferOffset }
        return ledger.bufferOffset + Int64(start - bufferStart)
    }

    /// Delivers the packets gathered so far; called before any other event and when the buffer is done with.
    func flush() {
        guard !ledger.isBatchEmpty else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[ledger.batchStart..<ledger.batchEnd])
        let follows = nextBatchFollowsDiscontinuity
        nextBatchFollowsDiscontinuity = false
        let deliver = { (descriptions: UnsafeBufferPointer<AudioStreamPacketDescription>?) in
            self.handler(.packets(PacketBatch(
                bytes: bytes, format: self.format, descriptions: descriptions,
                streamOffset: self.ledger.bufferOffset + Int64(self.ledger.batchStart),
                firstPacketIndex: self.ledger.firstPacket, followsDiscontinuity: follows,
                isAssembled: self.batchIsAssembled)))
        }
        if ledger.constantPackets > 0 {
            deliver(nil)
        } else {
            ledger.descriptions.withUnsafeBufferPointer(deliver)
        }
        ledger.clearBatch()
    }

    /// A whole packet of `size` bytes at `start` in the current buffer, holding `frames` PCM frames.
    func packet(at start: Int, size: Int, frames: Int, variableFrames: Bool) {
        if !ledger.record(start: start, size: size, frames: frames, variableFrames: variableFrames) {
            flush()
            _ = ledger.record(start: start, size: size, frames: frames, variableFrames: variableFrames)
        }
        let parsed = ledger.index.parsedPackets
        if parsed >= Self.packetsForEstimates && parsed & (parsed - 1) == 0 { announceMeasurements() }
    }

    /// `count` whole packets of the announced constant-size format (PCM frames, whose DataFormat gives
    /// `bytesPerPacket` and `framesPerPacket`), back to back from `start` in the current buffer. They are
    /// numbered by their distance from DataOffset, which must have been announced, and delivered without
    /// descriptions.
    func constantPackets(at start: Int, count: Int) {
        guard count > 0 else { return }
        let size = Int(format.bytesPerPacket)
        let frames = Int(format.framesPerPacket)
        let dataOffset: Int64 = if case .int64(let offset) = properties[.dataOffset] { offset } else { 0 }
        let number = (ledger.bufferOffset + Int64(start) - dataOffset) / Int64(size)
        if !ledger.recordConstant(start: start, count: count, size: size, frames: frames, number: number) {
            flush()
            _ = ledger.recordConstant(start: start, count: count, size: size, frames: frames, number: number)
        }
    }

    /// A whole packet the reader assembled in `bytes` from pieces spread over the stream (an Ogg packet
    /// continued across pages), whose first piece starts at stream offset `offset`: delivered alone, as a copy.
    func assembledPacket(_ bytes: UnsafeRawBufferPointer, at offset: Int64, frames: Int) {
        flush()
        let (buffer, bufferOffset) = (self.buffer, ledger.bufferOffset)
        begin(buffer: bytes, offset: offset)
        batchIsAssembled = true
        packet(at: 0, size: bytes.count, frames: frames, variableFrames: true)
        flush()
        batchIsAssembled = false
        begin(buffer: buffer, offset: bufferOffset)
    }

    /// Packets after which the measured properties are first announced; again at every doubling, and at the end.
    static let packetsForEstimates: Int64 = 8

    /// Announces what only the packets so far tell: MaximumPacketSize, AverageBytesPerPacket, BitRate where the
    /// headers do not give it, and InfoDictionary, which holds them.
    func announceMeasurements() {
        let index = ledger.index
        guard let average = index.averagePacketSize else { return }
        announce(.maximumPacketSize, .uint32(UInt32(index.maximumPacketSize)))
        announce(.averageBytesPerPacket, .float64(average))
        if measuresBitRate, index.frameCount > 0, format.sampleRate > 0 {
            let bitsPerSecond = Double(index.byteCount) * 8 * format.sampleRate / Double(index.frameCount)
            announce(.bitRate, .uint32(UInt32(min(bitsPerSecond.rounded(), Double(UInt32.max)))))
        }
        announce(.infoDictionary, .dictionary(infoDictionary()))
    }

    /// The stream goes on at `offset` (a seek): the next packet is numbered from there.
    func reposition(to offset: Int64) {
        ledger.reposition(to: offset)
    }

    /// The audio starts at `offset`: DataOffset, then ReadyToProducePackets, are announced, once a stream. A later
    /// file's audio (`AudioFileStream.markNewFile()`) goes on in the stream the first one made ready.
    func announceReady(dataOffset offset: Int64) {
        guard !isReady else { return }
        announce(.dataOffset, .int64(offset))
        announce(.readyToProducePackets, .uint32(1))
    }

    /// Forgets a property's value: the next announcement of it is news, whatever its value.
    func forget(_ id: AudioFileStreamPropertyID) {
        properties[id] = nil
    }

    /// Stores a property and announces it when it is new or changed, or always when `force` is set.
    func announce(_ id: AudioFileStreamPropertyID, _ value: AudioFileStreamPropertyValue, force: Bool = false) {
        duration.announcing(id, properties: properties, index: ledger.index)
        guard force || properties[id] != value else { return }
        flush()
        properties[id] = value
        if case .format(let format) = value { self.format = format }
        if id == .readyToProducePackets { isReady = true }
        handler(.property(id, value))
    }

    func metadata(_ metadata: Metadata, at offset: Int64) {
        flush()
        tags.merge(metadata.tags)
        handler(.metadata(MetadataEvent(offset: offset, metadata: metadata)))
    }

    /// The stream's segment under way (a file, a chain link) has ended: what is announced from now on states the
    /// next one's length (`StreamDuration`).
    func endSegment() {
        duration.endSegment(properties: properties, index: ledger.index)
    }

    /// Reports a fault that cost no audio bytes.
    func warning(_ kind: StreamWarning.Kind, at offset: Int64, _ message: String) {
        flush()
        handler(.warning(StreamWarning(offset: offset, kind: kind, message: message)))
    }

    /// The stream cannot go on past `offset`: the packets so far are delivered and the first failure is kept.
    func fail(_ error: AudioFileStreamError, at offset: Int64, _ reason: String) {
        flush()
        if failure == nil { failure = AudioFileStreamFailure(error, at: offset, reason) }
    }

    /// Bytes were dropped before stream offset `offset`; the next packets do not follow the previous ones.
    func discontinuity(at offset: Int64, skippedBytes: Int64, reason: Discontinuity.Reason) {
        flush()
        if [.input, .newSegment, .reconnect].contains(reason) { endSegment() }
        nextBatchFollowsDiscontinuity = true
        handler(.discontinuity(Discontinuity(offset: offset, skippedBytes: skippedBytes, reason: reason)))
    }
}
