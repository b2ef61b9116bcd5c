import AudioFileStream
import AudioFileWriting

/// The `CODECS` attribute of a multivariant playlist's variant (RFC 8216bis §4.4.6.2, RFC 6381): the codec of a
/// track as players name it before they fetch anything.
enum HLSCodecs {
    /// The codec's name, or nil for one HLS does not carry.
    static func name(of track: TrackFormat) -> String? {
        switch track.format.formatID {
        case AudioFormatID.mpeg4AAC:
            // The AudioSpecificConfig's first five bits, else the object type the format states.
            let objectType = track.cookie.first.map { Int($0 >> 3) } ?? Int(track.format.formatFlags)
            return "mp4a.40.\(objectType)"
        case AudioFormatID.mpegLayer3: return "mp4a.40.34"
        case AudioFormatID.ac3: return "ac-3"
        case AudioFormatID.enhancedAC3: return "ec-3"
        case AudioFormatID.opus: return "opus"
        case AudioFormatID.flac: return "fLaC"
        case AudioFormatID.appleLossless: return "alac"
        default: return nil
        }
    }
}
