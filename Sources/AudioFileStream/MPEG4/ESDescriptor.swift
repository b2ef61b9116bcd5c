/// An MPEG-4 elementary stream descriptor (ISO/IEC 14496-1 §7.2.6.5, ES_Descriptor), as an MP4 `esds` box and a
/// CAF `kuki` chunk of AAC carry it: read only as far as its DecoderSpecificInfo, which for MPEG-4 audio is the
/// AudioSpecificConfig a decoder needs.
enum ESDescriptor {
    private static let esDescriptorTag: UInt8 = 0x03
    private static let decoderConfigTag: UInt8 = 0x04
    private static let decoderSpecificInfoTag: UInt8 = 0x05
    /// objectTypeIndication, streamType/upStream, bufferSizeDB, maxBitrate, avgBitrate (§7.2.6.6).
    private static let decoderConfigFields = 13

    /// The DecoderSpecificInfo bytes of the ES_Descriptor that `bytes` hold, or nil when they hold none or are
    /// malformed. `bytes` may start with the descriptor (a CAF `kuki`) or with the 4 bytes of version and flags
    /// an MP4 `esds` box puts before it. Every length is checked against the bytes there are.
    static func decoderSpecificInfo(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let start = bytes.first == esDescriptorTag ? 0 : 4
        guard var position = descriptorBody(bytes, at: start, tag: esDescriptorTag)?.lowerBound,
              position + 3 <= bytes.count else { return nil }
        // ES_ID, then the flags saying which optional fields follow (§7.2.6.5.1).
        let flags = bytes[position + 2]
        position += 3
        if flags & 0x80 != 0 { position += 2 }  // dependsOn_ES_ID
        if flags & 0x40 != 0 {  // URL
            guard position < bytes.count else { return nil }
            position += 1 + Int(bytes[position])
        }
        if flags & 0x20 != 0 { position += 2 }  // OCR_ES_Id
        guard let config = descriptorBody(bytes, at: position, tag: decoderConfigTag),
              let info = descriptorBody(bytes, at: config.lowerBound + decoderConfigFields,
                                        tag: decoderSpecificInfoTag),
              info.upperBound <= config.upperBound
        else { return nil }
        return Array(bytes[info])
    }

    /// The range of the body of the descriptor at `position` when it has tag `tag` and its body lies within
    /// `bytes`. Its length is 1 to 4 bytes of 7 bits, each but the last with the top bit set (§8.3.3).
    private static func descriptorBody(_ bytes: UnsafeRawBufferPointer, at position: Int, tag: UInt8) -> Range<Int>? {
        guard position >= 0, position < bytes.count, bytes[position] == tag else { return nil }
        var length = 0
        var cursor = position + 1
        for index in 0..<4 {
            guard cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
            if index == 3 { return nil }
        }
        guard length <= bytes.count - cursor else { return nil }
        return cursor..<cursor + length
    }
}
