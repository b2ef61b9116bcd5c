/// Picks the reader for a stream from the caller's hint or, without one, from the first bytes.
enum FormatSniffer {
    /// Bytes needed to recognise the containers this library knows.
    static let sniffLength = 12

    /// The reader for `hint`, or an error when the hinted type is not supported.
    static func reader(for hint: AudioFileType, limits: MetadataLimits) throws -> any FormatReader {
        switch hint {
        case .mp1, .mp2, .mp3: SyncFrameReader(MPEGAudioFormat(), limits: limits)
        default: throw AudioFileStreamError.unsupportedFileType
        }
    }

    /// The reader for a stream starting with `bytes`. MPEG audio is the default because radio streams may open
    /// with junk or in the middle of a frame; containers it cannot read yet are refused by their signatures.
    static func reader(sniffing bytes: UnsafeRawBufferPointer, limits: MetadataLimits) throws -> any FormatReader {
        let signatures: [[UInt8]] = [
            Array("RIFF".utf8), Array("RF64".utf8), Array("FORM".utf8), Array("OggS".utf8), Array("fLaC".utf8),
            Array("caff".utf8),
        ]
        // ADTS shares MPEG audio's sync word but has layer bits 00.
        let isADTS = bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xF6 == 0xF0
        if isADTS || signatures.contains(where: { bytes.starts(with: $0) })
            || bytes.dropFirst(4).starts(with: "ftyp".utf8) {
            throw AudioFileStreamError.unsupportedFileType
        }
        return SyncFrameReader(MPEGAudioFormat(), limits: limits)
    }
}
