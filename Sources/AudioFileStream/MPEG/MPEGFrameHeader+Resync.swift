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

    /// True when `frame`, this header's whole frame, holds what an encoder writes where it is cheap to tell: see
    /// `isWellFormedLayerI`, `isWellFormedLayerII` and `isWellFormedLayerIII`.
    func isWellFormed(frame: UnsafeRawBufferPointer) -> Bool {
        switch layer {
        case 1: isWellFormedLayerI(frame)
        case 2: isWellFormedLayerII(frame)
        default: isWellFormedLayerIII(frame)
        }
    }

    /// A Layer I frame (ISO/IEC 11172-3 2.4.1.5, 2.4.2.5) is whole 4-byte slots, has no bit allocation of 1111,
    /// which is forbidden, and holds the bits its allocations ask for (per allocated subband, a 6-bit scale
    /// factor per channel and 12 samples), then the zeros encoders fill the frame with (ISO's streams hold no
    /// ancillary data). Rows of a table pass for headers, even at a steady free-format length; their bytes
    /// seldom pass for allocations and filling.
    private func isWellFormedLayerI(_ frame: UnsafeRawBufferPointer) -> Bool {
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

    /// A Layer II frame (ISO/IEC 11172-3 2.4.1.6, 2.4.2.6; 13818-3 2.4.2) holds the bits its allocations ask for:
    /// per allocated subband and channel, a 2-bit scale factor selection and the one to three 6-bit scale factors
    /// it selects, and per allocation 12 granules of samples (one allocation and one set of samples for both
    /// channels from the joint-stereo bound on). Rows of a table that pass for free-format headers ask for far
    /// more. Unlike Layer I, nothing is asked of the bits after them: real streams carry ancillary data there.
    private func isWellFormedLayerII(_ frame: UnsafeRawBufferPointer) -> Bool {
        let table = LayerIIAllocationTable(for: self).granuleBits
        let bound = channelMode == .jointStereo ? min(4 * (modeExtension + 1), table.count) : table.count
        let frameBits = frame.count * 8
        var cursor = BitCursor(bytes: frame, bit: (hasCRC ? 6 : 4) * 8)
        var sampleBits = 0
        var selections = 0
        for (subband, granuleBits) in table.enumerated() {
            let width = granuleBits.count.trailingZeroBitCount
            for _ in 0..<(subband < bound ? channelCount : 1) {
                guard cursor.bit + width <= frameBits else { return false }
                let allocation = cursor.read(width)
                guard allocation != 0 else { continue }
                sampleBits += 12 * granuleBits[allocation]
                selections += subband < bound ? 1 : channelCount
            }
        }
        guard cursor.bit + 2 * selections <= frameBits else { return false }
        var scaleFactors = 0
        for _ in 0..<selections {
            scaleFactors += Self.scaleFactorsSelected[cursor.read(2)]
        }
        return cursor.bit + 6 * scaleFactors + sampleBits <= frameBits
    }

    /// A Layer III frame's side information (ISO/IEC 11172-3 2.4.1.7, 13818-3 2.4.1.7) asks for no more main
    /// data than the frame and the bit reservoir behind it hold (the granules' part2_3_length against
    /// main_data_begin and the frame's own main data), has at most 288 big values a granule, and no block type 0
    /// under window switching, which is forbidden. A free-format frame is at least 8 kbit/s long, the least LAME,
    /// the encoder that writes free-format Layer III, accepts: rows of a program's tables chain at any stride.
    private func isWellFormedLayerIII(_ frame: UnsafeRawBufferPointer) -> Bool {
        if isFreeFormat, frame.count < samplesPerFrame / 8 * Self.lowestFreeFormatLayerIIIRate / sampleRate {
            return false
        }
        let sideStart = hasCRC ? 6 : 4
        let sideEnd = sideStart + sideInfoSize
        guard frame.count >= sideEnd else { return false }
        let isMPEG1 = version == .mpeg1
        var side = BitCursor(bytes: frame, bit: sideStart * 8)
        let mainDataBegin = side.read(isMPEG1 ? 9 : 8)
        // Private bits, and MPEG-1's scale factor selection.
        side.skip(isMPEG1 ? (channelCount == 1 ? 5 : 3) + 4 * channelCount : channelCount)
        var mainDataBits = 0
        for _ in 0..<(isMPEG1 ? 2 : 1) * channelCount {
            mainDataBits += side.read(12)
            guard side.read(9) <= 288 else { return false }
            side.skip(8 + (isMPEG1 ? 4 : 9))  // global_gain, scalefac_compress
            if side.read(1) == 1 {
                guard side.read(2) != 0 else { return false }
                side.skip(1 + 2 * 5 + 3 * 3)  // mixed_block_flag, table_select, subblock_gain
            } else {
                side.skip(3 * 5 + 4 + 3)  // table_select, region0_count, region1_count
            }
            side.skip(isMPEG1 ? 3 : 2)  // preflag (MPEG-1), scalefac_scale, count1table_select
        }
        return mainDataBits <= (mainDataBegin + frame.count - sideEnd) * 8
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

    /// Layer II's scale factors sent per scale factor selection (ISO/IEC 11172-3 2.4.2.6, scfsi).
    private static let scaleFactorsSelected = [3, 2, 1, 2]

    /// Bits per second, LAME's floor for `--freeformat`.
    private static let lowestFreeFormatLayerIIIRate = 8000

    /// Protection, copyright, original and emphasis bits.
    private static let settingsMask: UInt32 = 0x0001_000F
}

/// Reads bits, most significant first, from bytes the caller has checked hold them.
private struct BitCursor {
    let bytes: UnsafeRawBufferPointer
    var bit: Int

    mutating func read(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[bit / 8] >> (7 - bit % 8) & 1)
            bit += 1
        }
        return value
    }

    mutating func skip(_ count: Int) {
        bit += count
    }
}
