/// The errors of Apple's Audio File Stream Services, with their four-character codes.
public enum AudioFileStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file type is not recognised or not supported.
    case unsupportedFileType
    /// The data format is not allowed in this file type.
    case unsupportedDataFormat
    /// The property does not exist for this stream.
    case unsupportedProperty
    /// A caller-supplied buffer has the wrong size.
    case badPropertySize
    /// The container cannot be streamed (its index follows the audio).
    case notOptimized
    /// A packet number or byte offset is negative or past the known data.
    case invalidPacketOffset
    /// The bytes are malformed or not audio.
    case invalidFile
    /// The value is not stated before the audio data and will not become known from the header.
    case valueUnknown
    /// The value is not known yet: more bytes must be parsed first.
    case dataUnavailable
    /// The operation is not allowed in the stream's current state.
    case illegalOperation
    /// Something went wrong that no other case describes.
    case unspecifiedError
    /// After a discontinuity no packet boundary could be found again.
    case discontinuityCantRecover

    /// Apple's four-character code for the error, e.g. `typ?`.
    public var code: FourCharCode {
        switch self {
        case .unsupportedFileType: "typ?"
        case .unsupportedDataFormat: "fmt?"
        case .unsupportedProperty: "pty?"
        case .badPropertySize: "!siz"
        case .notOptimized: "optm"
        case .invalidPacketOffset: "pck?"
        case .invalidFile: "dta?"
        case .valueUnknown: "unk?"
        case .dataUnavailable: "more"
        case .illegalOperation: "nope"
        case .unspecifiedError: "wht?"
        case .discontinuityCantRecover: "dsc!"
        }
    }

    public var description: String {
        let meaning: String
        switch self {
        case .unsupportedFileType: meaning = "unsupported file type"
        case .unsupportedDataFormat: meaning = "unsupported data format"
        case .unsupportedProperty: meaning = "unsupported property"
        case .badPropertySize: meaning = "bad property size"
        case .notOptimized: meaning = "file is not optimized for streaming"
        case .invalidPacketOffset: meaning = "invalid packet offset"
        case .invalidFile: meaning = "invalid file"
        case .valueUnknown: meaning = "value unknown"
        case .dataUnavailable: meaning = "data unavailable"
        case .illegalOperation: meaning = "illegal operation"
        case .unspecifiedError: meaning = "unspecified error"
        case .discontinuityCantRecover: meaning = "discontinuity can't recover"
        }
        return "\(meaning) ('\(code)')"
    }
}
