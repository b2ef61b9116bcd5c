import AudioFileStream
import AudioStreamProtocol

/// Which subscribers a message is for: those that asked for any member. Each `Hello.Kind` is a member, and so are
/// what no hello names but a transport or an option brings (`listeners`, `artwork`).
struct Audience: OptionSet, Hashable {
    let rawValue: UInt8

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The subscribers that asked for `kind`.
    init(_ kind: Hello.Kind) {
        rawValue = 1 << Hello.Kind.allCases.firstIndex(of: kind)!
    }

    static let packets = Audience(.packets)
    static let pcm = Audience(.pcm)
    static let properties = Audience(.properties)
    static let metadata = Audience(.metadata)
    static let levels = Audience(.levels)
    /// ICY metadata blocks and mount headers, for HTTP listeners and outputs only.
    static let listeners = Audience(rawValue: 1 << 7)
    /// Artwork messages, for the subscribers whose hello asked for them.
    static let artwork = Audience(rawValue: 1 << 6)
    /// Every subscriber: whatever it asked for, it asked for something.
    static let everyone = Audience(rawValue: .max)
    /// `source` events are the stream's status: for the subscribers of its metadata or properties.
    static let streamStatus: Audience = [.metadata, .properties]
    /// Properties without which packets cannot be decoded: a subscriber of packets gets them even when it did
    /// not ask for properties.
    static let packetFormat: Set<AudioFileStreamPropertyID> = [.dataFormat, .magicCookieData]

    /// What a subscriber with `hello` over `transport` asked for.
    init(hello: Hello, transport: Subscriber.Transport) {
        self = Audience(hello.kinds.map(Audience.init))
        if transport != .socket { insert(.listeners) }
        if hello.artwork { insert(.artwork) }
    }

    /// Who gets property `id`.
    static func of(_ id: AudioFileStreamPropertyID) -> Audience {
        packetFormat.contains(id) ? [.properties, .packets] : .properties
    }

    /// Whether a subscriber that asked for these gets a message for `audience`.
    func wants(_ audience: Audience) -> Bool {
        !isDisjoint(with: audience)
    }
}
