/// A message as a client reads it.
public enum WireMessage: Sendable {
    /// A JSON message (welcome, event, error, response) with its text.
    case json(WireMessageType, String)
    case packet(PacketMessage)
    case pcm(PCMMessage)
    case artwork(ArtworkMessage)

    /// Reads a message's payload.
    /// - Throws: `WireError.truncated` when a binary payload is shorter than its fields,
    ///   `WireError.unexpectedMessage` for a type a client never receives.
    public init(type rawType: UInt8, payload: ArraySlice<UInt8>) throws {
        switch WireMessageType(rawValue: rawType) {
        case .welcome, .event, .error, .response:
            self = .json(WireMessageType(rawValue: rawType)!, String(decoding: payload, as: UTF8.self))
        case .packet:
            self = .packet(try PacketMessage(payload: payload))
        case .pcm:
            self = .pcm(try PCMMessage(payload: payload))
        case .artwork:
            self = .artwork(try ArtworkMessage(payload: payload))
        case .hello, .request, nil:
            throw WireError.unexpectedMessage(rawType)
        }
    }
}

/// One packet: its bytes and the fields of its `audiostream events` line, plus its timestamp.
public struct PacketMessage: Sendable {
    /// Byte offset of the packet in the stream.
    public let offset: Int64
    /// Frames of audio before this packet since the stream started.
    public let timestamp: Int64
    public let frames: Int
    public let bytes: ArraySlice<UInt8>

    init(payload: ArraySlice<UInt8>) throws {
        guard payload.count >= WireProtocol.packetFieldsSize else { throw WireError.truncated }
        offset = Int64(bitPattern: payload.bigEndianInteger(at: 0, as: UInt64.self))
        timestamp = Int64(bitPattern: payload.bigEndianInteger(at: 8, as: UInt64.self))
        frames = Int(payload.bigEndianInteger(at: 16, as: UInt32.self))
        bytes = payload.dropFirst(WireProtocol.packetFieldsSize)
    }
}

/// Decoded PCM: interleaved little-endian samples and their format.
public struct PCMMessage: Sendable {
    /// Frames of audio before these since the stream started.
    public let timestamp: Int64
    public let sampleRate: Int
    public let channels: Int
    public let encoding: WirePCMEncoding
    public let samples: ArraySlice<UInt8>

    public var frames: Int { samples.count / max(1, channels * encoding.bytesPerSample) }

    init(payload: ArraySlice<UInt8>) throws {
        guard payload.count >= WireProtocol.pcmFieldsSize,
              let encoding = WirePCMEncoding(rawValue: payload[payload.startIndex + 14])
        else { throw WireError.truncated }
        timestamp = Int64(bitPattern: payload.bigEndianInteger(at: 0, as: UInt64.self))
        sampleRate = Int(payload.bigEndianInteger(at: 8, as: UInt32.self))
        channels = Int(payload.bigEndianInteger(at: 12, as: UInt16.self))
        self.encoding = encoding
        samples = payload.dropFirst(WireProtocol.pcmFieldsSize)
    }
}

/// A picture from the stream's tags.
public struct ArtworkMessage: Sendable {
    /// The picture's `artwork` event: its source, offset, MIME type, picture type, description and size.
    public let description: String
    public let picture: ArraySlice<UInt8>

    init(payload: ArraySlice<UInt8>) throws {
        guard payload.count >= 4 else { throw WireError.truncated }
        let length = Int(payload.bigEndianInteger(at: 0, as: UInt32.self))
        guard length <= payload.count - 4 else { throw WireError.truncated }
        let text = payload.dropFirst(4).prefix(length)
        description = String(decoding: text, as: UTF8.self)
        picture = payload.dropFirst(4 + length)
    }
}

extension ArraySlice<UInt8> {
    /// The big-endian integer `position` bytes into the slice.
    func bigEndianInteger<T: FixedWidthInteger>(at position: Int, as: T.Type) -> T {
        var value: T = 0
        for byte in self[(startIndex + position)..<(startIndex + position + MemoryLayout<T>.size)] {
            value = value << 8 | T(byte)
        }
        return value
    }
}
