extension AudioChannelLayout {
    /// The layout of an AC-3 or E-AC-3 coding mode, channels in the order A/52 Table 5.8 codes them with LFE
    /// last, named by the Core Audio tag that lists them in that order (as FFmpeg's MOV muxer maps them). Dual
    /// mono (1+1) is two independent programmes, not a left and a right: its channels are only numbered.
    init(ac3CodingMode mode: Int, hasLFE: Bool) {
        let (family, channels) = hasLFE ? Self.ac3TagsWithLFE[mode] : Self.ac3Tags[mode]
        self.init(tag: family << 16 | channels)
    }

    /// Layout tag families and channel counts by acmod.
    private static let ac3Tags: [(UInt32, UInt32)] = [
        (147, 2),  // DiscreteInOrder: Ch1 Ch2
        (100, 1),  // Mono: C
        (101, 2),  // Stereo: L R
        (150, 3),  // AC3_3_0: L C R
        (131, 3),  // ITU_2_1: L R Cs
        (151, 4),  // AC3_3_1: L C R Cs
        (132, 4),  // ITU_2_2: L R Ls Rs
        (119, 5),  // MPEG_5_0_C: L C R Ls Rs
    ]

    /// The same with the LFE channel.
    private static let ac3TagsWithLFE: [(UInt32, UInt32)] = [
        (147, 3),  // DiscreteInOrder: Ch1 Ch2 LFE
        (149, 2),  // AC3_1_0_1: C LFE
        (133, 3),  // DVD_4: L R LFE
        (152, 4),  // AC3_3_0_1: L C R LFE
        (153, 4),  // AC3_2_1_1: L R Cs LFE
        (154, 5),  // AC3_3_1_1: L C R Cs LFE
        (138, 5),  // DVD_18: L R Ls Rs LFE
        (123, 6),  // MPEG_5_1_C: L C R Ls Rs LFE
    ]
}
