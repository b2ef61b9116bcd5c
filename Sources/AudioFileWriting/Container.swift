import AudioFileStream

/// The file kinds a stream's packets can be written into, named by their file extensions.
public enum Container: String, CaseIterable, Sendable {
    /// MPEG audio with a Xing/Info frame and LAME tag; `.mp2` and `.mp1` name the same writer.
    case mp3, mp2, mp1
    /// AAC in ADTS frames, as broadcast.
    case aac
    /// AAC or ALAC in an MPEG-4 file.
    case m4a
    /// Opus, Vorbis or FLAC in Ogg; `.opus` and `.oga` name the same writer.
    case ogg, opus, oga
    case flac
    /// AC-3 and E-AC-3 syncframes as they are.
    case ac3, eac3
    /// Linear PCM in WAVE, RF64 past 4 GiB.
    case wav

    /// The container a file name's extension names (case-insensitive), or nil.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        let name = fileName[fileName.index(after: dot)...].lowercased()
        switch name {
        case "mp4": self = .m4a
        case "adts": self = .aac
        case "ec3": self = .eac3
        default: self.init(rawValue: name)
        }
    }

    /// The container a stream of `format` is written in when the name says none: the one that states trims, and
    /// the extension players expect of the codec (`.m4a` for AAC, `.opus` for Opus).
    public static func natural(for format: AudioStreamBasicDescription) -> Container? {
        switch format.formatID {
        case AudioFormatID.mpeg4AAC, AudioFormatID.appleLossless: .m4a
        case AudioFormatID.opus: .opus
        case AudioFormatID.vorbis: .ogg
        case AudioFormatID.flac: .flac
        default: Container.allCases.first { $0.canHold(format) }
        }
    }

    /// `requested`, or when nil the natural container for `format`.
    /// - Throws: `WriteError.unsupportedFormat` when nothing was requested and no container holds the format.
    public static func chosen(_ requested: Container?, for format: AudioStreamBasicDescription) throws -> Container {
        guard let container = requested ?? natural(for: format) else {
            throw WriteError.unsupportedFormat("no container holds \(format.codecName) audio")
        }
        return container
    }

    /// Whether the container holds packets of `format`.
    public func canHold(_ format: AudioStreamBasicDescription) -> Bool {
        switch self {
        case .mp3: format.formatID == AudioFormatID.mpegLayer3
        case .mp2: format.formatID == AudioFormatID.mpegLayer2
        case .mp1: format.formatID == AudioFormatID.mpegLayer1
        case .aac: format.formatID == AudioFormatID.mpeg4AAC
        case .m4a: [AudioFormatID.mpeg4AAC, AudioFormatID.appleLossless].contains(format.formatID)
        case .ogg, .oga: [AudioFormatID.opus, AudioFormatID.vorbis, AudioFormatID.flac].contains(format.formatID)
        case .opus: format.formatID == AudioFormatID.opus
        case .flac: format.formatID == AudioFormatID.flac
        case .ac3: format.formatID == AudioFormatID.ac3
        case .eac3: format.formatID == AudioFormatID.enhancedAC3
        case .wav: format.formatID == AudioFormatID.linearPCM
        }
    }

    /// Whether the container says, for packets of `format`, how many frames of its decoded start and end are
    /// not audio in a way decoders honour, so that a file may begin with a decoder's lead-in and end mid-packet.
    /// Without it, files partition the packets.
    public func statesTrims(for format: AudioStreamBasicDescription) -> Bool {
        switch self {
        // Decoders read a Xing frame's LAME tag only in Layer III.
        case .mp3, .m4a, .opus: true
        // ffmpeg ignores the granule positions' trims of FLAC in Ogg.
        case .ogg, .oga: format.formatID != AudioFormatID.flac
        case .mp2, .mp1, .aac, .flac, .ac3, .eac3, .wav: false
        }
    }

    /// Whether files of several runs of packets play each through an edit of its own, with its own trims
    /// (`ContainerWriter.startSegment`).
    public var statesEdits: Bool { self == .m4a }

    /// Starts a writer of this container for `track`, with `options` where it takes them.
    /// - Throws: `WriteError.unsupportedFormat` when the container cannot hold the track, or the target's error.
    public func makeWriter(track: TrackFormat, tags: NormalizedTags, leadingTrim: Int64,
                           options: WriterOptions = WriterOptions(),
                           to target: inout some WriteTarget) throws -> any ContainerWriter {
        guard canHold(track.format) else {
            throw WriteError.unsupportedFormat(".\(rawValue) cannot hold \(track.format.codecName) audio")
        }
        switch self {
        case .mp3, .mp2, .mp1: return try MPEGWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        case .aac: return try ADTSWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        case .ac3, .eac3: return try AC3FramesWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        case .ogg, .opus, .oga: return try OggWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        case .flac:
            return try FLACWriter(track: track, tags: tags, leadingTrim: leadingTrim, options: options, to: &target)
        case .wav: return try WAVEWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        case .m4a: return try M4AWriter(track: track, tags: tags, leadingTrim: leadingTrim, to: &target)
        }
    }
}
