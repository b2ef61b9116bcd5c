/// The MagicCookieData of a CAF `kuki` chunk: what a decoder of the format needs, in the form the other
/// containers of this library give for the same codec.
enum CAFMagicCookie {
    /// The largest `kuki` held: 64 KiB, far above any codec's configuration (an ALAC or AAC one is tens of bytes).
    /// A larger one is skipped, reported, and gives no cookie.
    static let largestCookie = 1 << 16
    /// Bytes in an ALACSpecificConfig (Apple's ALAC specification, "Magic Cookie").
    private static let alacConfigLength = 24

    /// The cookie of `formatID` in `bytes`, or nil when they do not hold what the format needs:
    /// - AAC, HE-AAC and HE-AACv2 (afconvert's `aach`, `aacp`): the kuki is an ES_Descriptor; the cookie is its
    ///   AudioSpecificConfig, as the ADTS and MP4 readers give.
    /// - ALAC: the 24-byte ALACSpecificConfig, alone or after `frma` and `alac` atoms, which are unwrapped.
    /// - Any other format (Opus: whatever its writer stored; ffmpeg stores none): the bytes as stored.
    static func cookie(_ bytes: UnsafeRawBufferPointer, formatID: FourCharCode) -> [UInt8]? {
        switch formatID {
        case AudioFormatID.mpeg4AAC, AudioFormatID.mpeg4AACHighEfficiency, AudioFormatID.mpeg4AACHighEfficiencyV2:
            let info = ElementaryStreamDescriptor(bytes)?.decoderSpecificInfo
            return info?.isEmpty == false ? info : nil
        case AudioFormatID.appleLossless:
            var start = 0
            // An atom header: a 32-bit size, then its type; `frma` holds the format, `alac` 4 bytes of version and
            // flags before the config.
            if bytes.matches("frma", at: 4) { start += bytes.count >= 8 ? Int(bytes.bigEndianUInt32(at: 0)) : 0 }
            if bytes.matches("alac", at: start + 4) { start += 12 }
            guard start >= 0, bytes.count - start >= alacConfigLength else { return nil }
            return Array(bytes[start..<start + alacConfigLength])
        default:
            return Array(bytes)
        }
    }
}
