import AudioFileStream

/// What libavcodec expects as extradata, from the magic cookie our readers give.
enum CodecExtradata {
    /// The cookie as each decoder reads it: AAC's AudioSpecificConfig, Opus's OpusHead, Vorbis's three headers in
    /// Xiph lacing (`XiphLacing`) and FLAC's STREAMINFO body go as they are; ALAC's ALACSpecificConfig goes inside
    /// the `alac` atom libavcodec's decoder skips the 12 bytes of (alac.c reads from offset 12); AC-3 has none.
    static func extradata(for formatID: FourCharCode, magicCookie: [UInt8]) -> [UInt8] {
        guard formatID == AudioFormatID.appleLossless, !magicCookie.isEmpty else { return magicCookie }
        if let atom = alacAtomStart(in: magicCookie) { return Array(magicCookie[atom...]) }
        let size = UInt32(12 + magicCookie.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array("alac".utf8) + [0, 0, 0, 0] + magicCookie
    }

    /// Where the `alac` atom (size, type, version and flags, then the configuration) starts, when the cookie has
    /// one: Apple's cookie is the bare configuration, but MP4 and some CAF writers keep the atom, behind a
    /// 12-byte `frma` atom in ffmpeg's CAF files.
    private static func alacAtomStart(in cookie: [UInt8]) -> Int? {
        [0, 12].first { start in cookie.count >= start + 12 && Array(cookie[start + 4..<start + 8]) == Array("alac".utf8) }
    }
}
