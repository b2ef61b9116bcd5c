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
    /// AC-3 elementary stream (kAudioFileAC3Type).
    public static let ac3 = AudioFileType(rawValue: "ac-3")
    /// E-AC-3 elementary stream, by the code of its data format (kAudioFormatEnhancedAC3).
    public static let eac3 = AudioFileType(rawValue: "ec-3")
    /// Ogg (Vorbis, Opus or FLAC in Ogg), by the code Apple's Ogg readers use.
    public static let ogg = AudioFileType(rawValue: "Ogg ")
    /// Native FLAC (kAudioFileFLACType).
    public static let flac = AudioFileType(rawValue: "flac")
    /// RIFF/WAVE (kAudioFileWAVEType).
    public static let wave = AudioFileType(rawValue: "WAVE")
    /// WAVE with 64-bit sizes, EBU Tech 3306 (kAudioFileRF64Type).
    public static let rf64 = AudioFileType(rawValue: "RF64")
    /// WAVE with 64-bit sizes, ITU-R BS.2088 (kAudioFileBW64Type).
    public static let bw64 = AudioFileType(rawValue: "BW64")
    /// AIFF (kAudioFileAIFFType).
    public static let aiff = AudioFileType(rawValue: "AIFF")
    /// AIFF-C (kAudioFileAIFCType).
    public static let aifc = AudioFileType(rawValue: "AIFC")
    /// MPEG-4 and QuickTime files (kAudioFileMPEG4Type); the type hints name.
    public static let mpeg4 = AudioFileType(rawValue: "mp4f")
    /// An MPEG-4 file branded M4A (kAudioFileM4AType), as FileFormat reports it.
    public static let m4a = AudioFileType(rawValue: "m4af")
    /// An MPEG-4 audio book branded M4B (kAudioFileM4BType), as FileFormat reports it.
    public static let m4b = AudioFileType(rawValue: "m4bf")

    /// Reads a hint as users write it: a four-character code (`MPG3`), an extension (`mp3`) or a MIME type (`audio/mpeg`).
    public init?(hint: String) {
        switch hint.lowercased() {
        case "mpg3", "mp3", "audio/mpeg", "audio/mp3", "audio/mpeg3": self = .mp3
        case "mpg2", "mp2", "audio/mp2", "audio/mpeg2": self = .mp2
        case "mpg1", "mp1", "audio/mp1": self = .mp1
        case "adts", "aac", "audio/aac", "audio/aacp", "audio/x-aac": self = .adts
        case "ac-3", "ac3", "audio/ac3": self = .ac3
        case "ec-3", "eac3", "ec3", "audio/eac3": self = .eac3
        case "ogg ", "ogg", "oga", "opus", "application/ogg", "audio/ogg", "audio/opus", "audio/vorbis": self = .ogg
        case "flac", "audio/flac", "audio/x-flac": self = .flac
        case "wave", "wav", "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": self = .wave
        case "rf64": self = .rf64
        case "bw64": self = .bw64
        case "aiff", "aif", "audio/aiff", "audio/x-aiff": self = .aiff
        case "aifc", "audio/x-aifc": self = .aifc
        case "mp4f", "m4af", "m4bf", "mp4", "m4a", "m4b", "mov", "audio/mp4", "audio/x-m4a", "audio/m4a", "video/mp4",
             "video/quicktime":
            self = .mpeg4
        default: return nil
        }
    }
}
