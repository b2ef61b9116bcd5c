/// FLAC in Ogg (Xiph's FLAC-to-Ogg mapping 1.0): a first packet holding the mapping's header and STREAMINFO,
/// then one metadata block a header packet, then one frame a packet, its frames in its frame header.
struct OggFLACCodec: OggCodec {
    private let streamInfo: FLACStreamInfo
    let format: AudioStreamBasicDescription
    let primingFrames = 0
    /// Header packets still to come, or nil when the mapping does not say (a count of 0).
    private var headersLeft: Int?

    init?(identification packet: UnsafeRawBufferPointer) {
        // 0x7F "FLAC", version 1.x, header count, "fLaC", then STREAMINFO's block header and body.
        guard packet.count >= 17 + FLACStreamInfo.length, packet[0] == 0x7F, packet.matches("FLAC", at: 1),
              packet[5] == 1, packet.matches("fLaC", at: 9), packet[13] & 0x7F == 0,
              let streamInfo = FLACStreamInfo(UnsafeRawBufferPointer(rebasing: packet[17...])),
              streamInfo.sampleRate > 0
        else { return nil }
        self.streamInfo = streamInfo
        let count = Int(packet.bigEndianUInt16(at: 7))
        headersLeft = count == 0 ? nil : count
        format = FLACFormat.dataFormat(sampleRate: streamInfo.sampleRate, channels: streamInfo.channelCount,
                                       bitsPerSample: streamInfo.bitsPerSample)
    }

    var magicCookie: [UInt8] { streamInfo.bytes }

    mutating func take(header packet: UnsafeRawBufferPointer) -> OggHeaderStep {
        if headersLeft == nil, FLACFrameHeader(bytes: packet, at: 0) != nil { return .audio }
        // A metadata block: its header's top bit marks the last.
        guard packet.count >= 4, packet[0] & 0x7F != 0x7F else { return .invalid }
        headersLeft = headersLeft.map { $0 - 1 }
        return headersLeft == 0 || packet[0] & 0x80 != 0 ? .complete : .needsMore
    }

    func metadata(in header: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        let body = UnsafeRawBufferPointer(rebasing: header[4...])
        switch header[0] & 0x7F {
        case 4: return VorbisComment.metadata(body, limits: limits)
        case 6:
            guard let artwork = FLACPicture.artwork(body, blockLength: body.count, limits: limits) else { return nil }
            let fields = [RawTagField(key: VorbisComment.pictureKey, value: .picture(artwork))]
            return Metadata(source: .vorbisComment, tags: MetadataNormalizer.tags(from: fields), raw: fields)
        default: return nil
        }
    }

    func frames(ofAudio packet: UnsafeRawBufferPointer) -> Int? {
        FLACFrameHeader(bytes: packet, at: 0)?.blockSize
    }

    func resetForDiscontinuity() {}
}
