/// One of Layer II's bit allocation tables (ISO/IEC 11172-3 Annex B, Tables 3-B.2a–d; ISO/IEC 13818-3 Table B.1
/// at the lower sampling frequencies), as far as a frame's length needs it: per subband up to the table's
/// sblimit, the bits one granule of the subband's three samples takes at each allocation.
struct LayerIIAllocationTable: Sendable {
    /// Per subband, the bits of a granule at each allocation the subband's field can hold (0 at allocation 0:
    /// nothing sent). Each row has 4, 8 or 16 entries, so an allocation field of 2, 3 or 4 bits never holds a
    /// value the table leaves undefined.
    let granuleBits: [[Int]]

    /// The table a header's frame is coded with. MPEG-1 chooses by sampling rate and bit rate per channel; free
    /// format, as the captions of Tables 3-B.2a and b say, by sampling rate alone (a at 48 kHz, b at 44.1 and
    /// 32 kHz), as libmad decodes and TwoLAME encodes it.
    init(for header: MPEGFrameHeader) {
        guard header.version == .mpeg1 else {
            self = Self.lowSamplingFrequencies
            return
        }
        let is48kHz = header.sampleRate == 48000
        guard let bitRate = header.bitRate else {
            self = is48kHz ? Self.a : Self.b
            return
        }
        let perChannel = bitRate / 1000 / header.channelCount
        switch perChannel {
        case 56...80: self = Self.a
        case 81...: self = is48kHz ? Self.a : Self.b
        default: self = header.sampleRate == 32000 ? Self.d : Self.c
        }
    }

    private init(_ runs: [(levels: [Int], subbands: Int)]) {
        granuleBits = runs.flatMap { run in
            Array(repeating: run.levels.map(Self.granuleBits(levels:)), count: run.subbands)
        }
    }

    /// Bits of a granule's three samples quantized to `levels` steps (Table 3-B.4): 3, 5 and 9 levels send one
    /// code for the three; the others a code of log2(levels + 1) bits each.
    private static func granuleBits(levels: Int) -> Int {
        switch levels {
        case 0: 0
        case 3: 5
        case 5: 7
        case 9: 10
        default: 3 * (levels + 1).trailingZeroBitCount
        }
    }

    /// The quantization levels of each allocation, as the tables list them (0: no allocation).
    private static let to65535Skipping5And9 = [
        0, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767, 65535,
    ]
    private static let to65535 = [0, 3, 5, 7, 9, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 65535]
    private static let to31Then65535 = [0, 3, 5, 7, 9, 15, 31, 65535]
    private static let to5Then65535 = [0, 3, 5, 65535]
    private static let to32767 = [0, 3, 5, 9, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767]
    private static let to127 = [0, 3, 5, 9, 15, 31, 63, 127]
    private static let to16383 = [0, 3, 5, 7, 9, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383]
    private static let to9 = [0, 3, 5, 9]

    /// Table 3-B.2a: 48 kHz at 56 kbit/s a channel and up, 44.1 and 32 kHz at 56 to 80.
    private static let a = Self([(to65535Skipping5And9, 3), (to65535, 8), (to31Then65535, 12), (to5Then65535, 4)])
    /// Table 3-B.2b: 44.1 and 32 kHz at 96 kbit/s a channel and up.
    private static let b = Self([(to65535Skipping5And9, 3), (to65535, 8), (to31Then65535, 12), (to5Then65535, 7)])
    /// Table 3-B.2c: 48 and 44.1 kHz at 32 and 48 kbit/s a channel.
    private static let c = Self([(to32767, 2), (to127, 6)])
    /// Table 3-B.2d: 32 kHz at 32 and 48 kbit/s a channel.
    private static let d = Self([(to32767, 2), (to127, 10)])
    /// ISO/IEC 13818-3 Table B.1: every bit rate at 16, 22.05 and 24 kHz.
    private static let lowSamplingFrequencies = Self([(to16383, 4), (to127, 7), (to9, 19)])
}
