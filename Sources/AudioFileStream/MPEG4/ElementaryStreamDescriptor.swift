/// An MPEG-4 elementary stream descriptor (ISO/IEC 14496-1 §7.2.6.5, ES_Descriptor), as an MP4 `esds` box and a
/// CAF `kuki` chunk of AAC carry it: read as far as the stream's object type and its DecoderSpecificInfo, which
/// for MPEG-4 audio is the AudioSpecificConfig (FFmpeg's extradata, Core Audio's magic cookie).
struct ElementaryStreamDescriptor {
    /// objectTypeIndication: 0x40 MPEG-4 audio; 0x66…0x68 MPEG-2 AAC profiles; 0x69 and 0x6B MPEG audio.
    let objectType: UInt8
    /// Empty when the stream has none (MPEG audio needs none).
    let decoderSpecificInfo: [UInt8]

    private static let esDescriptorTag: UInt8 = 0x03
    private static let decoderConfigTag: UInt8 = 0x04
    private static let decoderSpecificInfoTag: UInt8 = 0x05
    /// objectTypeIndication, streamType/upStream, bufferSizeDB, maxBitrate, avgBitrate (§7.2.6.6).
    private static let decoderConfigFields = 13

    /// Reads the ES_Descriptor `bytes` hold; nil when they hold none or it is malformed. `bytes` may start with
    /// the descriptor (a CAF `kuki`) or with the 4 bytes of version and flags an MP4 `esds` box puts before it.
    /// Every length is checked against the bytes there are.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let start = bytes.first == Self.esDescriptorTag ? 0 : 4
        guard var position = Self.descriptorBody(bytes, at: start, tag: Self.esDescriptorTag)?.lowerBound,
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
        guard let config = Self.descriptorBody(bytes, at: position, tag: Self.decoderConfigTag),
              config.count >= Self.decoderConfigFields else { return nil }
        objectType = bytes[config.lowerBound]
        let infoStart = config.lowerBound + Self.decoderConfigFields
        guard infoStart < config.upperBound else {
            decoderSpecificInfo = []
            return
        }
        guard let info = Self.descriptorBody(bytes, at: infoStart, tag: Self.decoderSpecificInfoTag),
              info.upperBound <= config.upperBound else { return nil }
        decoderSpecificInfo = Array(bytes[info])
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
