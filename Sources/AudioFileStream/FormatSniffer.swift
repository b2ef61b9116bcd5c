/// Picks the reader for a stream from the caller's hint or, without one, from the first bytes.
enum FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let sniffLength = 12

    /// The reader for `hint`, or an error when the hinted type is not supported.
    static func reader(for hint: AudioFileType, limits: MetadataLimits) throws -> any FormatReader {
        switch hint {
        case .mp1, .mp2, .mp3: SyncFrameReader(MPEGAudioFormat(), limits: limits)
        case .adts: SyncFrameReader(ADTSFormat(), limits: limits)
        default: throw AudioFileStreamError.unsupportedFileType
        }
    }

    /// The reader for a stream starting with `bytes`: AAC when an ADTS header opens it, otherwise MPEG audio,
    /// since radio streams may open with junk or in the middle of a frame. Containers it cannot read yet are
    /// refused by their signatures.
    static func reader(sniffing bytes: UnsafeRawBufferPointer, limits: MetadataLimits) throws -> any FormatReader {
        let signatures: [[UInt8]] = [
            Array("RIFF".utf8), Array("RF64".utf8), Array("FORM".utf8), Array("OggS".utf8), Array("fLaC".utf8),
            Array("caff".utf8),
        ]
        if signatures.contains(where: { bytes.starts(with: $0) }) || bytes.dropFirst(4).starts(with: "ftyp".utf8) {
            throw AudioFileStreamError.unsupportedFileType
        }
        // ADTS shares MPEG audio's sync word but has layer bits 00.
        if ADTSFrameHeader(bytes: bytes, at: 0) != nil {
            return SyncFrameReader(ADTSFormat(), limits: limits)
        }
        return SyncFrameReader(MPEGAudioFormat(), limits: limits)
    }
}
