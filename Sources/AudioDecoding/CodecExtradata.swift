import AudioFileStream

/// What libavcodec expects as extradata, from the magic cookie our readers give.
enum CodecExtradata {
    /// The cookie as each decoder reads it: AAC's AudioSpecificConfig, Opus's OpusHead, Vorbis's three headers in
    /// Xiph lacing and FLAC's STREAMINFO body go as they are; ALAC's ALACSpecificConfig goes inside the `alac`
    /// atom libavcodec's decoder skips the 12 bytes of (alac.c reads from offset 12); AC-3 has none.
    static func extradata(for formatID: FourCharCode, magicCookie: [UInt8]) -> [UInt8] {
        guard formatID == AudioFormatID.appleLossless, !magicCookie.isEmpty, !isALACAtom(magicCookie) else {
            return magicCookie
        }
        let size = UInt32(12 + magicCookie.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array("alac".utf8) + [0, 0, 0, 0] + magicCookie
    }

    /// Whether the cookie is already an atom (size, `alac`, version and flags) around the configuration.
    private static func isALACAtom(_ cookie: [UInt8]) -> Bool {
        cookie.count >= 12 && Array(cookie[4..<8]) == Array("alac".utf8)
    }
}
