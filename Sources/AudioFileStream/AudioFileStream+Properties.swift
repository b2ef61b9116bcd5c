extension AudioFileStream {
    /// The current value of a property.
    ///
    /// The four translation properties (PacketToFrame, FrameToPacket, PacketToByte, ByteToPacket) take an input
    /// and are the methods `frame(forPacket:)`, `packet(forFrame:)`, `byteOffset(ofPacket:)` and
    /// `packet(forByteOffset:)`.
    /// - Throws: `.dataUnavailable` while the header set is still being read, `.valueUnknown` when the stream
    ///   does not state the value, `.unsupportedProperty` for the translation properties.
    public func property(_ id: AudioFileStreamPropertyID) throws -> AudioFileStreamPropertyValue {
        let index = output.index
        switch id {
        case .packetToFrame, .frameToPacket, .packetToByte, .byteToPacket:
            throw AudioFileStreamError.unsupportedProperty
        case .maximumPacketSize where index.packetCount > 0:
            return .uint32(UInt32(index.maximumPacketSize))
        case .averageBytesPerPacket:
            if let average = index.averagePacketSize { return .float64(average) }
        case .infoDictionary where output.isReady:
            return .dictionary(infoDictionary)
        default:
            if let value = output.properties[id] { return value }
        }
        throw output.isReady ? AudioFileStreamError.valueUnknown : AudioFileStreamError.dataUnavailable
    }

    /// The stream's format, once known.
    public var dataFormat: AudioStreamBasicDescription? {
        if case .format(let format) = output.properties[.dataFormat] { format } else { nil }
    }

    /// The stream offset of the first audio packet, once known.
    public var dataOffset: Int64? {
        if case .int64(let offset) = output.properties[.dataOffset] { offset } else { nil }
    }

    /// Packets, PCM frames and packet bytes delivered so far; packets delivered again after a seek back count once.
    public var counted: (packets: Int64, frames: Int64, bytes: Int64) {
        (output.index.parsedPackets, output.index.frameCount, output.index.byteCount)
    }

    /// The stream offset just past the last packet delivered so far: where the audio ends, as the parser read it.
    package var audioEnd: Int64 { output.index.endOffset }

    /// The stream's duration in seconds and whether it is an estimate: exact from a packet table or packet count
    /// in the header (what the header says, even when the audio that follows is cut short, as AVAsset's duration
    /// is), or once the whole input has been parsed; otherwise from the byte count and bit rate.
    ///
    /// Durations are gapless where the stream states its priming and remainder (a packet table): its valid frames,
    /// without them. A stream of several files or chain links lasts their sum, each at its own rate.
    public var duration: (seconds: Double, isEstimated: Bool)? {
        output.duration.duration(properties: output.properties, index: output.index, isFinished: isFinished)
    }

    /// Core Audio's InfoDictionary: the tags read so far and what the stream says of itself, under the
    /// kAFInfoDictionary key names.
    var infoDictionary: [String: String] {
        let tags = output.tags
        var info: [String: String] = [:]
        info["title"] = tags.title
        info["artist"] = tags.artist
        info["album"] = tags.album
        info["year"] = tags.year
        info["genre"] = tags.genre
        info["comments"] = tags.comments
        info["composer"] = tags.composer
        info["tempo"] = tags.bpm.map(String.init)
        info["track number"] = tags.trackNumber.map { number in
            tags.trackCount.map { "\(number)/\($0)" } ?? String(number)
        }
        if case .uint32(let bitRate) = output.properties[.bitRate] { info["nominal bit rate"] = String(bitRate) }
        if let duration { info["approximate duration in seconds"] = String(duration.seconds) }
        return info
    }
}
