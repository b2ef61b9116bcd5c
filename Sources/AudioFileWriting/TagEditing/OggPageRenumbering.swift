/// Copies Ogg pages with the sequence numbers of one logical stream shifted, each changed page's CRC made anew
/// (RFC 3533 §6): what the pages after a rewritten header need when it takes more or fewer pages. Bytes that are
/// no page, a page whose CRC fails among them, are copied as they are.
enum OggPageRenumbering {
    /// Writes `bytes`; whatever is not a whole page (junk, a page cut short) is copied as it is.
    static func write(_ bytes: Slice<UnsafeRawBufferPointer>, serial: UInt32, shift: UInt32,
                      to target: inout some WriteTarget) throws {
        var offset = bytes.startIndex
        var copied = offset
        while offset + 27 <= bytes.endIndex {
            // A page whose CRC fails is no page to a reader, which looks for one at the next byte: stamped anew,
            // its bytes would become packets.
            guard let length = pageLength(bytes, at: offset), crcHolds(bytes.base[offset..<offset + length]) else {
                offset += 1
                continue
            }
            if shift != 0, bytes.base.loadLittleEndian(at: offset + 14) == serial {
                try target.append(UnsafeRawBufferPointer(rebasing: bytes.base[copied..<offset]))
                var page = Array(bytes.base[offset..<offset + length])
                let sequence: UInt32 = bytes.base.loadLittleEndian(at: offset + 18) &+ shift
                withUnsafeBytes(of: sequence.littleEndian) { page.replaceSubrange(18..<22, with: $0) }
                OggPageWriter.stampCRC(&page, pageAt: 0)
                try target.append(page)
                copied = offset + length
            }
            offset += length
        }
        try target.append(UnsafeRawBufferPointer(rebasing: bytes.base[copied..<bytes.endIndex]))
    }

    /// Where the next link of a chain begins in `bytes`: its first page, one that begins a logical stream (RFC 3533
    /// §6, header type 0x02) other than `serial`. Bytes that are no page are passed over as readers pass them.
    static func nextLink(in bytes: Slice<UnsafeRawBufferPointer>, after serial: UInt32) -> Int? {
        var offset = bytes.startIndex
        while offset + 27 <= bytes.endIndex {
            guard let length = pageLength(bytes, at: offset), crcHolds(bytes.base[offset..<offset + length]) else {
                offset += 1
                continue
            }
            if bytes.base[offset + 5] & 0x02 != 0, bytes.base.loadLittleEndian(at: offset + 14) != serial {
                return offset
            }
            offset += length
        }
        return nil
    }

    /// Whether `page`'s CRC is the one its bytes give.
    static func crcHolds(_ page: Slice<UnsafeRawBufferPointer>) -> Bool {
        var stamped = Array(page)
        OggPageWriter.stampCRC(&stamped, pageAt: 0)
        return stamped.elementsEqual(page)
    }

    /// The length of the page at `offset`, or nil when no whole page starts there.
    static func pageLength(_ bytes: Slice<UnsafeRawBufferPointer>, at offset: Int) -> Int? {
        guard offset + 27 <= bytes.endIndex, bytes.base[offset..<offset + 4].elementsEqual("OggS".utf8) else { return nil }
        let segments = Int(bytes.base[offset + 26])
        guard offset + 27 + segments <= bytes.endIndex else { return nil }
        let length = 27 + segments + bytes.base[offset + 27..<offset + 27 + segments].reduce(0) { $0 + Int($1) }
        return offset + length <= bytes.endIndex ? length : nil
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`.
    func loadLittleEndian<T: FixedWidthInteger>(at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
