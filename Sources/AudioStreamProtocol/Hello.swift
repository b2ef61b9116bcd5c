import Foundation

/// What a subscriber asks for when it connects: its first message, JSON on the wire.
public struct Hello: Equatable, Sendable {
    /// What a subscriber can receive. Discontinuity and end events reach every subscriber, `source` events the
    /// subscribers of `metadata` or `properties`, and the `dfmt` and `mgic` properties those of `packets` too;
    /// `levels` events come from a stream whose loudness is monitored.
    public enum Kind: String, CaseIterable, Sendable {
        case packets, pcm, properties, metadata, levels
    }

    public var kinds: Set<Kind>
    /// The PCM wanted, when `kinds` has `.pcm`.
    public var pcm: PCMRequest
    /// Seconds of recent packets wanted at once, before the live ones.
    public var burstSeconds: Double
    /// Whether the pictures of the stream's tags are wanted, as `artwork` messages: the current one on joining,
    /// then each new one.
    public var artwork: Bool

    public init(kinds: Set<Kind>, pcm: PCMRequest = PCMRequest(), burstSeconds: Double = 0, artwork: Bool = false) {
        self.kinds = kinds
        self.pcm = pcm
        self.burstSeconds = burstSeconds
        self.artwork = artwork
    }

    /// The hello as JSON text.
    public var json: JSON {
        .object([
            ("protocol", .number(WireProtocol.version)),
            ("kinds", .array(Kind.allCases.filter(kinds.contains).map { .string($0.rawValue) })),
            ("pcm", pcm.json), ("burst", .double(burstSeconds)), ("artwork", .bool(artwork)),
        ])
    }

    /// Reads a hello.
    /// - Throws: `WireError.badHello` naming what is wrong, for the server to send back before closing.
    public init(json payload: [UInt8]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
            throw WireError.badHello("the hello is not a JSON object")
        }
        guard object["protocol"] as? Int == WireProtocol.version else {
            throw WireError.badHello("unsupported protocol \(object["protocol"] ?? "none"); this server speaks 1")
        }
        guard let names = object["kinds"] as? [String], !names.isEmpty else {
            throw WireError.badHello("kinds must list some of packets, pcm, properties, metadata, levels")
        }
        kinds = try Set(names.map { name in
            guard let kind = Kind(rawValue: name) else { throw WireError.badHello("unknown kind '\(name)'") }
            return kind
        })
        pcm = try PCMRequest(json: object["pcm"] ?? "s16")
        let burst = object["burst"] ?? 0
        guard let seconds = burst as? NSNumber, seconds.doubleValue >= 0, seconds.doubleValue.isFinite
        else { throw WireError.badHello("burst must be a number of seconds, 0 or more, not \(burst)") }
        burstSeconds = seconds.doubleValue
        let artwork = object["artwork"] ?? false
        guard let wanted = artwork as? Bool else {
            throw WireError.badHello("artwork must be true or false, not \(artwork)")
        }
        self.artwork = wanted
    }
}

/// A protocol violation, said back to the peer before the connection closes.
public enum WireError: Error, Equatable, CustomStringConvertible {
    case badHello(String)
    case unexpectedMessage(UInt8)
    /// A `request` (such as `status`) sent to a stream's socket, which only subscribers use.
    case requestOnStreamSocket
    case badLength(Int)
    case truncated

    public var description: String {
        switch self {
        case .badHello(let reason): "bad hello: \(reason)"
        case .unexpectedMessage(let type): "unexpected message type \(type)"
        case .requestOnStreamSocket:
            "this is a stream's socket, for subscribers: ask the control socket (`control` in the configuration)"
        case .badLength(let length): "a message length of \(length) is out of range"
        case .truncated: "the connection ended inside a message"
        }
    }
}
