import AudioFileStream
import AudioFileWriting

/// The two kinds of HLS segment (RFC 8216bis §3.1): packed audio and fragmented MP4.
public enum HLSContainer: String, CaseIterable, Sendable {
    /// Packed audio (§3.1.3): the codec's own frames (ADTS for AAC), each part led by an ID3 tag stating its
    /// first sample's time. AAC, MP3, AC-3 and E-AC-3.
    case packed
    /// Fragmented MPEG-4 as CMAF (§3.1.2): an initialization section, then `moof` and `mdat` fragments. AAC
    /// (HE-AAC included), ALAC, Opus and FLAC.
    case fmp4

    /// Whether segments of this kind can carry packets of `format`.
    public func canCarry(_ format: AudioStreamBasicDescription) -> Bool {
        switch self {
        case .packed:
            // ADTS says only the four profiles its two bits hold; §3.1.3 names MP3 and no other MPEG layer.
            [AudioFormatID.mpegLayer3, AudioFormatID.ac3, AudioFormatID.enhancedAC3].contains(format.formatID)
                || format.formatID == AudioFormatID.mpeg4AAC && ADTSHeader(format: format) != nil
        case .fmp4:
            [AudioFormatID.mpeg4AAC, AudioFormatID.appleLossless, AudioFormatID.opus, AudioFormatID.flac]
                .contains(format.formatID)
        }
    }

    /// `requested`, or when nil packed audio where the codec allows it, else fragmented MP4.
    /// - Throws: `WriteError.unsupportedFormat` saying why, when the container cannot carry the codec.
    public static func chosen(_ requested: HLSContainer?, for format: AudioStreamBasicDescription) throws
        -> HLSContainer {
        if let requested {
            guard requested.canCarry(format) else {
                throw WriteError.unsupportedFormat("HLS \(requested.rawValue) segments cannot carry "
                    + "\(format.codecName) audio")
            }
            return requested
        }
        guard let natural = allCases.first(where: { $0.canCarry(format) }) else {
            throw WriteError.unsupportedFormat("HLS carries no \(format.codecName) audio: packed segments hold AAC, "
                + "MP3, AC-3 and E-AC-3, fmp4 AAC, ALAC, Opus and FLAC")
        }
        return natural
    }

    /// The extension of a segment's and a part's file name.
    func segmentExtension(for format: AudioStreamBasicDescription) -> String {
        switch (self, format.formatID) {
        case (.fmp4, _): "m4s"
        case (_, AudioFormatID.mpeg4AAC): "aac"
        case (_, AudioFormatID.ac3): "ac3"
        case (_, AudioFormatID.enhancedAC3): "eac3"
        default: "mp3"
        }
    }

    /// Whether decoders of these segments honour the trims the stream states: an edit in the initialization
    /// section leaves the priming out of fragmented MP4; packed audio has nowhere to say it.
    var statesPriming: Bool { self == .fmp4 }
}
