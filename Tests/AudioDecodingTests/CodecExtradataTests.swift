@testable import AudioDecoding
import AudioFileStream
import Testing

/// The magic cookies our readers give, as libavcodec's decoders read their extradata.
@Suite struct CodecExtradataTests {
    /// ALACSpecificConfig as Apple's ALAC documentation lays it out: frame length 4096, version 0, 16 bits, the
    /// tuning values 40, 10, 14, 2 channels, max run 255, max frame bytes, average bit rate, 44100 Hz.
    static let alacConfig: [UInt8] = [0, 0, 16, 0, 0, 16, 40, 10, 14, 2, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 172, 68]

    /// libavcodec's alac.c reads the configuration from offset 12: after an `alac` atom's size, type, version and
    /// flags, as MP4 and CAF writers put it.
    @Test func alacConfigGoesInsideItsAtom() {
        let extradata = CodecExtradata.extradata(for: AudioFormatID.appleLossless, magicCookie: Self.alacConfig)
        #expect(extradata == [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + Self.alacConfig)
        #expect(CodecExtradata.extradata(for: AudioFormatID.appleLossless, magicCookie: extradata) == extradata)
        let behindFormatAtom = [0, 0, 0, 12] + Array("frmaalac".utf8) + extradata
        #expect(CodecExtradata.extradata(for: AudioFormatID.appleLossless, magicCookie: behindFormatAtom) == extradata)
    }

    @Test func otherCookiesGoAsTheyAre() {
        let audioSpecificConfig: [UInt8] = [0x12, 0x10]
        #expect(CodecExtradata.extradata(for: AudioFormatID.mpeg4AAC, magicCookie: audioSpecificConfig)
            == audioSpecificConfig)
        #expect(CodecExtradata.extradata(for: AudioFormatID.ac3, magicCookie: []).isEmpty)
    }
}
