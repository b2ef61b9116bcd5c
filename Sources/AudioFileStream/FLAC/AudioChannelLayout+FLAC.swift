extension AudioChannelLayout {
    /// The layout of FLAC's channel order for a channel count (RFC 9639 §9.1.3), by the Core Audio tag of the
    /// same order: mono, stereo, L R C, quadraphonic, 5.0 and 5.1 in MPEG's A order, then 6.1 and 7.1.
    init(flacChannels channels: Int) {
        switch channels {
        case 1: self = .mono
        case 2: self = .stereo
        case 3: self.init(tag: 113 << 16 | 3)  // MPEG_3_0_A: L R C
        case 4: self.init(tag: 108 << 16 | 4)  // Quadraphonic: L R Ls Rs
        case 5: self.init(tag: 117 << 16 | 5)  // MPEG_5_0_A: L R C Ls Rs
        case 6: self.init(tag: 121 << 16 | 6)  // MPEG_5_1_A: L R C LFE Ls Rs
        case 7: self.init(tag: 125 << 16 | 7)  // MPEG_6_1_A: L R C LFE Ls Rs Cs
        default: self.init(tag: 130 << 16 | 8)  // MPEG_7_1_C: L R C LFE Ls Rs Rls Rrs
        }
    }
}
