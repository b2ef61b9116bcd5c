/// The format of a stream's packets, field for field as Core Audio's ASBD.
public struct AudioStreamBasicDescription: Equatable, Sendable {
    /// The highest sample rate a container may state and still be read: far above any audio's (768 kHz), low
    /// enough that frame counts and byte rates made from it stay within integers.
    public static let maximumSampleRate: Double = 16_777_216

    public var sampleRate: Double
    public var formatID: FourCharCode
    public var formatFlags: UInt32
    /// Bytes in a packet, or 0 when packets vary in size.
    public var bytesPerPacket: UInt32
    /// PCM frames in a packet, or 0 when that varies.
    public var framesPerPacket: UInt32
    /// Bytes in one PCM frame, or 0 for compressed formats.
    public var bytesPerFrame: UInt32
    public var channelsPerFrame: UInt32
    /// Bits per sample, or 0 for compressed formats.
    public var bitsPerChannel: UInt32

    public init(
        sampleRate: Double, formatID: FourCharCode, formatFlags: UInt32 = 0, bytesPerPacket: UInt32 = 0,
        framesPerPacket: UInt32, bytesPerFrame: UInt32 = 0, channelsPerFrame: UInt32, bitsPerChannel: UInt32 = 0
    ) {
        self.sampleRate = sampleRate
        self.formatID = formatID
        self.formatFlags = formatFlags
        self.bytesPerPacket = bytesPerPacket
        self.framesPerPacket = framesPerPacket
        self.bytesPerFrame = bytesPerFrame
        self.channelsPerFrame = channelsPerFrame
        self.bitsPerChannel = bitsPerChannel
    }
}

/// Core Audio's format identifiers for the codecs this library frames.
public enum AudioFormatID {
    public static let mpegLayer1: FourCharCode = ".mp1"
    public static let mpegLayer2: FourCharCode = ".mp2"
    public static let mpegLayer3: FourCharCode = ".mp3"
    /// kAudioFormatMPEG4AAC; the ASBD's format flags hold the MPEG-4 audio object type (2 for AAC LC).
    public static let mpeg4AAC: FourCharCode = "aac "
    /// kAudioFormatAC3: AC-3 (Dolby Digital) syncframes.
    public static let ac3: FourCharCode = "ac-3"
    /// kAudioFormatEnhancedAC3: E-AC-3 (Dolby Digital Plus) syncframes.
    public static let enhancedAC3: FourCharCode = "ec-3"
    /// kAudioFormatMPEG4AAC_HE: AAC with SBR, once a decoder has seen it (the stream says AAC LC).
    public static let mpeg4AACHighEfficiency: FourCharCode = "aach"
    /// kAudioFormatMPEG4AAC_HE_V2: AAC with SBR and parametric stereo.
    public static let mpeg4AACHighEfficiencyV2: FourCharCode = "aacp"
    /// kAudioFormatOpus: Opus packets (in Ogg or CAF).
    public static let opus: FourCharCode = "opus"
    /// Vorbis packets (in Ogg); Core Audio defines no constant, so this follows the style of the others.
    public static let vorbis: FourCharCode = "vorb"
    /// kAudioFormatFLAC: FLAC frames (native, in Ogg or MP4).
    public static let flac: FourCharCode = "flac"
    /// kAudioFormatAppleLossless: ALAC packets (in MP4 or CAF).
    public static let appleLossless: FourCharCode = "alac"
    /// kAudioFormatAppleIMA4: Apple's IMA ADPCM, constant packets of 64 frames, 34 bytes a channel (CAF, AIFC).
    public static let appleIMA4: FourCharCode = "ima4"
    /// kAudioFormatLinearPCM: integer or float samples; the ASBD's flags say which (WAVE, AIFF, CAF).
    public static let linearPCM: FourCharCode = "lpcm"
    /// kAudioFormatULaw and kAudioFormatALaw: G.711 companded samples (AIFC, WAVE, CAF).
    public static let uLaw: FourCharCode = "ulaw"
    public static let aLaw: FourCharCode = "alaw"

    /// The codec's name as people know it ("MP3", "AAC", "E-AC-3"), for messages; a code no codec here has is
    /// given quoted as it is.
    public static func name(of id: FourCharCode) -> String {
        switch id {
        case mpegLayer1: "MP1"
        case mpegLayer2: "MP2"
        case mpegLayer3: "MP3"
        case mpeg4AAC: "AAC"
        case mpeg4AACHighEfficiency: "HE-AAC"
        case mpeg4AACHighEfficiencyV2: "HE-AAC v2"
        case ac3: "AC-3"
        case enhancedAC3: "E-AC-3"
        case opus: "Opus"
        case vorbis: "Vorbis"
        case flac: "FLAC"
        case appleLossless: "ALAC"
        case appleIMA4: "IMA ADPCM"
        case linearPCM: "PCM"
        case uLaw: "\u{B5}-law"
        case aLaw: "A-law"
        default: "'\(id)'"
        }
    }
}

extension AudioStreamBasicDescription {
    /// The name of the format's codec as people know it (`AudioFormatID.name(of:)`).
    public var codecName: String { AudioFormatID.name(of: formatID) }
}
