extension MPEGFrameHeader {
    /// True when the header holds a value the specs reserve or forbid, which real streams never hold where a
    /// decoder must find them: the reserved emphasis (ISO/IEC 11172-3 2.4.2.3), an MPEG-1 Layer II bit rate not
    /// allowed in its mode (32, 48, 56 and 80 kbit/s are for one channel, 224 kbit/s and above for two), or
    /// MPEG 2.5 outside Layer III, the only layer its extension defines. Decoders still play such frames within
    /// a stream (ISO's header test stream has a reserved emphasis), so only a resync refuses them.
    var holdsReservedValue: Bool {
        if word & 3 == 2 { return true }
        switch (version, layer) {
        case (.mpeg25, 1), (.mpeg25, 2): return true
        case (.mpeg1, 2): return channelMode == .mono ? bitrateIndex >= 11 : [1, 2, 3, 5].contains(bitrateIndex)
        default: return false
        }
    }

    /// True when `other` keeps what one encoder keeps from frame to frame in a Layer I or II stream, beyond
    /// compatibility: the CRC's presence, one or two channels, copyright, original and emphasis. Bytes of other
    /// data that pass for compatible headers flip them; ISO's Layer III header test stream flips them too, so
    /// Layer III is not held to this.
    func keepsEncoderSettings(of other: MPEGFrameHeader) -> Bool {
        word & Self.settingsMask == other.word & Self.settingsMask
            && (channelMode == .mono) == (other.channelMode == .mono)
    }

    /// True when `frame`, this header's whole frame, holds what an encoder writes where it is cheap to tell. A
    /// Layer I frame (ISO/IEC 11172-3 2.4.1.5, 2.4.2.5) is whole 4-byte slots, has no bit allocation of 1111,
    /// which is forbidden, and holds the bits its allocations ask for (per allocated subband, a 6-bit scale
    /// factor per channel and 12 samples), then the zeros encoders fill the frame with (ISO's streams hold no
    /// ancillary data). Rows of a table pass for headers, even at a steady free-format length; their bytes
    /// seldom pass for allocations and filling. Other layers are not looked into.
    func isWellFormed(frame: UnsafeRawBufferPointer) -> Bool {
        guard layer == 1 else { return true }
        let allocationStart = hasCRC ? 6 : 4
        let allocationEnd = allocationStart + (layerIAllocationCount + 1) / 2
        guard frame.count % slotSize == 0, frame.count >= allocationEnd else { return false }
        let separateAllocations = layerIAllocationCount - jointAllocationCount
        var bits = allocationEnd * 8
        for index in 0..<layerIAllocationCount {
            let byte = frame[allocationStart + index / 2]
            let allocation = Int(index % 2 == 0 ? byte >> 4 : byte & 0x0F)
            guard allocation != 0x0F else { return false }
            guard allocation != 0 else { continue }
            bits += (index < separateAllocations ? 6 : 6 * channelCount) + 12 * (allocation + 1)
        }
        guard bits <= frame.count * 8 else { return false }
        let filling = frame[((bits + 7) / 8)...]
        return (bits % 8 == 0 || frame[bits / 8] << (bits % 8) == 0) && !filling.contains { $0 != 0 }
    }

    /// Layer I's four-bit allocations: one per subband and channel, then one for both channels from the
    /// joint-stereo bound on.
    var layerIAllocationCount: Int {
        32 * channelCount - jointAllocationCount * (channelCount - 1)
    }

    /// Layer I's allocations that serve both channels: those of the subbands from the joint-stereo bound on.
    private var jointAllocationCount: Int {
        channelMode == .jointStereo ? 32 - 4 * (modeExtension + 1) : 0
    }

    /// Protection, copyright, original and emphasis bits.
    private static let settingsMask: UInt32 = 0x0001_000F
}
