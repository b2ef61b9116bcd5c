import Foundation

/// The PCM a subscriber asks for in its hello: an encoding, and a rate and channel count when it wants them fixed
/// (the stream's PCM is then resampled and remixed, so a player gets one steady format however the station
/// changes). Unfixed, they follow the stream.
public struct PCMRequest: Hashable, Sendable {
    public var encoding: WirePCMEncoding
    /// Hz, within `sampleRates`; nil for the stream's own.
    public var sampleRate: Int?
    /// Within `channelCounts`; nil for the stream's own.
    public var channels: Int?

    /// The rates a hello may fix.
    public static let sampleRates = 8_000...192_000
    /// The channel counts a hello may fix: mono or stereo.
    public static let channelCounts = 1...2

    public init(encoding: WirePCMEncoding = .s16, sampleRate: Int? = nil, channels: Int? = nil) {
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// As a hello gives it: the encoding's name alone when nothing is fixed, else an object.
    var json: JSON {
        guard sampleRate != nil || channels != nil else { return .string(encoding.name) }
        var fields: [(String, JSON)] = [("format", .string(encoding.name))]
        if let sampleRate { fields.append(("rate", .number(sampleRate))) }
        if let channels { fields.append(("channels", .number(channels))) }
        return .object(fields)
    }

    /// Reads a hello's `pcm`: `"s16"`, `"f32"`, or `{"format": "s16", "rate": 48000, "channels": 2}` with every
    /// key optional.
    /// - Throws: `WireError.badHello` naming what is wrong.
    init(json value: Any) throws {
        let fields: [String: Any]
        if let name = value as? String {
            fields = ["format": name]
        } else if let object = value as? [String: Any] {
            fields = object
        } else {
            throw WireError.badHello("pcm must be \"s16\", \"f32\" or an object, not \(value)")
        }
        let format = fields["format"] ?? "s16"
        guard let name = format as? String, let encoding = WirePCMEncoding(name: name) else {
            throw WireError.badHello("pcm format must be \"s16\" or \"f32\", not \(format)")
        }
        self.encoding = encoding
        sampleRate = try Self.integer(fields["rate"], named: "rate", in: Self.sampleRates)
        channels = try Self.integer(fields["channels"], named: "channels", in: Self.channelCounts)
    }

    private static func integer(_ value: Any?, named name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        // JSONSerialization gives true and false as NSNumbers too, of the C type char.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c", let integer = value as? Int,
              range.contains(integer)
        else {
            throw WireError.badHello("pcm \(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        return integer
    }
}
