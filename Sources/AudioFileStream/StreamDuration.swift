/// How long a stream lasts over its segments: each file or chain link lasts what it states or what it holds, at
/// its own rate, and the stream lasts their sum (a chained Ogg Opus lasts every link, not its first or last
/// alone). A segment ends, once it holds packets, where a new file begins (`AudioFileStream.markNewFile`, whose
/// header may state the next one's length before its DataFormat) or a new DataFormat is announced (an Ogg chain
/// link, a change of format).
struct StreamDuration {
    typealias Properties = [AudioFileStreamPropertyID: AudioFileStreamPropertyValue]

    /// The seconds of the segments before the current one.
    private var earlierSeconds: Double = 0
    /// Frames delivered before the current segment.
    private var segmentStart: Int64 = 0
    /// The stated lengths (PacketTableInfo, AudioDataPacketCount) announced in the current segment: an earlier
    /// segment's are not its own, though they stay in the property store until replaced.
    private var stated: Set<AudioFileStreamPropertyID> = []

    /// `id` is about to be announced, with `properties` still the store before it.
    mutating func announcing(_ id: AudioFileStreamPropertyID, properties: Properties, index: PacketIndex) {
        switch id {
        case .dataFormat: endSegment(properties: properties, index: index)
        case .packetTableInfo, .audioDataPacketCount: stated.insert(id)
        default: break
        }
    }

    /// The segment under way ends, if it holds packets: all its frames are in.
    mutating func endSegment(properties: Properties, index: PacketIndex) {
        guard index.frameCount > segmentStart else { return }
        earlierSeconds += segment(properties: properties, index: index, isFinished: true)?.seconds ?? 0
        segmentStart = index.frameCount
        stated = []
    }

    /// The stream's duration in seconds and whether it is an estimate: see `AudioFileStream.duration`.
    func duration(properties: Properties, index: PacketIndex, isFinished: Bool) -> (seconds: Double, isEstimated: Bool)? {
        guard let current = segment(properties: properties, index: index, isFinished: isFinished) else {
            return earlierSeconds > 0 ? (earlierSeconds, !isFinished) : nil
        }
        return (earlierSeconds + current.seconds, current.isEstimated)
    }

    /// The current segment's duration, as `AudioFileStream.duration` states its rules.
    private func segment(properties: Properties, index: PacketIndex, isFinished: Bool)
        -> (seconds: Double, isEstimated: Bool)? {
        guard case .format(let format) = properties[.dataFormat], format.sampleRate > 0 else { return nil }
        let table: PacketTableInfo? = if stated.contains(.packetTableInfo),
                                         case .packetTableInfo(let table) = properties[.packetTableInfo] {
            table
        } else {
            nil
        }
        // No valid frames is a start whose end is not known yet: an Ogg stream's first page states its priming.
        if let table, table.validFrames > 0 {
            return (Double(table.validFrames) / format.sampleRate, false)
        }
        // A count is a duration only with constant frames a packet (not ALAC's or Vorbis's 0), and a damaged
        // Xing tag may count 0 packets before a stream of them.
        if stated.contains(.audioDataPacketCount), case .uint64(let packets) = properties[.audioDataPacketCount],
           packets > 0, format.framesPerPacket > 0 {
            return (Double(packets) * Double(format.framesPerPacket) / format.sampleRate, false)
        }
        if isFinished {
            let trimmed = Int64(table?.primingFrames ?? 0) + Int64(table?.remainderFrames ?? 0)
            return (Double(max(index.frameCount - segmentStart - trimmed, 0)) / format.sampleRate, false)
        }
        guard case .uint32(let bitRate) = properties[.bitRate], bitRate > 0 else { return nil }
        let bytes: UInt64 = if case .uint64(let count) = properties[.audioDataByteCount] { count }
            else { UInt64(index.byteCount) }
        return (Double(bytes) * 8 / Double(bitRate), true)
    }
}
