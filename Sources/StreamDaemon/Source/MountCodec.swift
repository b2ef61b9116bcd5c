import AudioFileStream
import Foundation

/// The codec a push stream plays, which every source client must send: the stream's `codec:`, or else the first
/// one heard since it started. Listeners and recordings of a mount cannot follow a change of codec, so a client
/// sending another is refused: at the door when its content type rules the codec out, else at its first frame.
struct MountCodec: Equatable, Sendable, CustomStringConvertible {
    /// Core Audio's format identifier of the codec (HE-AAC counted as AAC, its core layer).
    let formatID: FourCharCode

    /// The names `codec:` takes, with their codecs.
    static let names: [(name: String, formatID: FourCharCode)] = [
        ("mp3", AudioFormatID.mpegLayer3), ("mp2", AudioFormatID.mpegLayer2), ("aac", AudioFormatID.mpeg4AAC),
        ("opus", AudioFormatID.opus), ("vorbis", AudioFormatID.vorbis), ("flac", AudioFormatID.flac),
        ("ac3", AudioFormatID.ac3), ("eac3", AudioFormatID.enhancedAC3),
    ]

    /// The codec `codec:` names; nil for a name not in `names`.
    init?(name: String) {
        guard let entry = Self.names.first(where: { $0.name == name.lowercased() }) else { return nil }
        formatID = entry.formatID
    }

    /// The codec of packets of `format`.
    init(_ format: AudioStreamBasicDescription) {
        switch format.formatID {
        case AudioFormatID.mpeg4AACHighEfficiency, AudioFormatID.mpeg4AACHighEfficiencyV2:
            formatID = AudioFormatID.mpeg4AAC
        default:
            formatID = format.formatID
        }
    }

    /// Its `codec:` name, or else its format identifier.
    var description: String {
        Self.names.first { $0.formatID == formatID }?.name ?? formatID.description
    }

    /// Whether a stream of `contentType` may carry this codec: false only when the type names a format that
    /// cannot (`audio/mpeg` for Vorbis, `application/ogg` for MP3); a type unknown or absent may.
    func mayArrive(as contentType: String?) -> Bool {
        let mediaType = contentType?.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        guard let fileType = mediaType.flatMap(AudioFileType.init(hint:)) else { return true }
        switch fileType {
        case .mp1, .mp2, .mp3:
            return [AudioFormatID.mpegLayer1, AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer3].contains(formatID)
        case .adts: return formatID == AudioFormatID.mpeg4AAC
        case .ogg: return [AudioFormatID.opus, AudioFormatID.vorbis, AudioFormatID.flac].contains(formatID)
        case .flac: return formatID == AudioFormatID.flac
        case .ac3: return formatID == AudioFormatID.ac3
        case .eac3: return formatID == AudioFormatID.enhancedAC3
        default: return true
        }
    }
}
