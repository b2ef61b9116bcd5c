/// A container type, identified by Apple's AudioFileTypeID four-character code.
public struct AudioFileType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: FourCharCode

    public init(rawValue: FourCharCode) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue.description }

    /// MPEG-1/2/2.5 Layer I elementary stream.
    public static let mp1 = AudioFileType(rawValue: "MPG1")
    /// MPEG-1/2/2.5 Layer II elementary stream.
    public static let mp2 = AudioFileType(rawValue: "MPG2")
    /// MPEG-1/2/2.5 Layer III elementary stream.
    public static let mp3 = AudioFileType(rawValue: "MPG3")
    /// AAC in ADTS framing.
    public static let adts = AudioFileType(rawValue: "adts")

    /// Reads a hint as users write it: a four-character code (`MPG3`), an extension (`mp3`) or a MIME type (`audio/mpeg`).
    public init?(hint: String) {
        switch hint.lowercased() {
        case "mpg3", "mp3", "audio/mpeg", "audio/mp3", "audio/mpeg3": self = .mp3
        case "mpg2", "mp2", "audio/mp2", "audio/mpeg2": self = .mp2
        case "mpg1", "mp1", "audio/mp1": self = .mp1
        case "adts", "aac", "audio/aac", "audio/aacp", "audio/x-aac": self = .adts
        default: return nil
        }
    }
}
