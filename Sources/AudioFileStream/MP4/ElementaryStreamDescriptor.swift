/// The `esds` box's ES_Descriptor (ISO/IEC 14496-1 §7.2.6.5): the object type of the stream and its decoder
/// specific info, which for MPEG-4 audio is the AudioSpecificConfig, FFmpeg's extradata and Core Audio's
/// magic cookie.
struct ElementaryStreamDescriptor {
    /// objectTypeIndication: 0x40 MPEG-4 audio; 0x66…0x68 MPEG-2 AAC profiles; 0x69 and 0x6B MPEG audio.
    let objectType: UInt8
    let decoderSpecificInfo: [UInt8]

    /// Reads the content of an `esds` box (after its version and flags); nil when the descriptors are broken.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let es = Self.descriptor(tagged: 0x03, in: bytes), es.count >= 3 else { return nil }
        let flags = es[2]
        var inner = 3
        if flags & 0x80 != 0 { inner += 2 }  // dependsOn_ES_ID
        if flags & 0x40 != 0 { inner += 1 + (inner < es.count ? Int(es[inner]) : 0) }  // URL
        if flags & 0x20 != 0 { inner += 2 }  // OCR_ES_Id
        guard inner <= es.count,
              let config = Self.descriptor(tagged: 0x04, in: UnsafeRawBufferPointer(rebasing: es[inner...])),
              config.count >= 13 else { return nil }
        objectType = config[0]
        decoderSpecificInfo = Self.descriptor(tagged: 0x05, in: UnsafeRawBufferPointer(rebasing: config[13...]))
            .map { Array($0) } ?? []
    }

    /// The content of the descriptor with `tag` first in `bytes` (§8.3.3: a tag byte, then a
    /// size of up to four bytes of 7 bits each), skipping others.
    private static func descriptor(tagged tag: UInt8, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var cursor = 0
        while cursor < bytes.count {
            let found = bytes[cursor]
            cursor += 1
            var size = 0
            for _ in 0..<4 {
                guard cursor < bytes.count else { return nil }
                let byte = bytes[cursor]
                cursor += 1
                size = size << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            guard size <= bytes.count - cursor else { return nil }
            if found == tag {
                return UnsafeRawBufferPointer(rebasing: bytes[cursor..<cursor + size])
            }
            cursor += size
        }
        return nil
    }
}
