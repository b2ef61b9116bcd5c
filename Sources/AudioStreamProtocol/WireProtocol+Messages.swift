/// The JSON messages besides hellos and events, and whole messages as a blocking client sends them
/// (docs/protocol.md).
extension WireProtocol {
    /// The welcome answering a hello on the socket of `stream`.
    public static func welcome(stream: String) -> JSON {
        .object([("protocol", .number(version)), ("stream", .string(stream))])
    }

    /// An `error` message: why the server closes the connection.
    public static func error(_ reason: String) -> JSON {
        .object([("error", .string(reason))])
    }

    /// The request for a daemon's status, on its control socket.
    public static let statusRequest = JSON.object([("command", .string("status"))])

    /// A whole message: its length, its type, then the JSON's text.
    public static func message(_ type: WireMessageType, json: JSON) -> [UInt8] {
        let payload = Array(json.text.utf8)
        return header(type: type.rawValue, payloadSize: payload.count) + payload
    }

    /// The length and type that go before a payload of `payloadSize` bytes.
    public static func header(type: UInt8, payloadSize: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(payloadSize + 1).bigEndian, Array.init) + [type]
    }
}
