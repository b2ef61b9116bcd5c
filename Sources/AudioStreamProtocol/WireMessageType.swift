/// The kinds of message on a stream or control socket (docs/protocol.md).
///
/// Every message is a 4-byte big-endian length counting the bytes after it, one type byte, then the payload.
public enum WireMessageType: UInt8, Sendable {
    /// Client → server, JSON: what the subscriber wants.
    case hello = 1
    /// Server → client, JSON: the protocol version and stream name, answering a hello.
    case welcome = 2
    /// Server → client, JSON: one event in the `audiostream events` schema.
    case event = 3
    /// Server → client, binary: one packet with its offset, timestamp and frames.
    case packet = 4
    /// Server → client, binary: decoded PCM with its timestamp and format.
    case pcm = 5
    /// Server → client, JSON: why the server is closing the connection.
    case error = 6
    /// Client → control socket, JSON: a command.
    case request = 7
    /// Control socket → client, JSON: the command's answer.
    case response = 8
    /// Server → client, binary: a picture from the stream's tags, for subscribers that asked for artwork: a
    /// 4-byte big-endian length, that many bytes of JSON describing it, then the picture's bytes.
    case artwork = 9
}

/// Constants of the wire protocol.
public enum WireProtocol {
    /// The version this build speaks; a hello naming another is refused.
    public static let version = 1
    /// Bytes of the length and type fields before every payload.
    public static let headerSize = 5
    /// The largest message either side accepts: bigger lengths mean a broken or hostile peer.
    public static let maximumMessageSize = 16 << 20
    /// Bytes of a packet message's fields before the packet: offset, timestamp, frames.
    public static let packetFieldsSize = 20
    /// Bytes of a PCM message's fields before the samples: timestamp, rate, channels, encoding, reserved.
    public static let pcmFieldsSize = 16
}

/// PCM sample encodings on the wire, both little-endian and interleaved.
public enum WirePCMEncoding: UInt8, Sendable {
    case s16 = 1
    case f32 = 2

    /// The name used in hellos and `pcm` JSON lines.
    public var name: String {
        switch self {
        case .s16: "s16"
        case .f32: "f32"
        }
    }

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .f32: 4
        }
    }

    public init?(name: String) {
        switch name {
        case "s16": self = .s16
        case "f32": self = .f32
        default: return nil
        }
    }
}
