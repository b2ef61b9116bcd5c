/// Writes the pages of one logical Ogg stream (RFC 3533), one packet at a time: what `OggReader` reads, for
/// handing a stream's packets to players that want Ogg whatever container they came in.
///
/// Each packet starts a page of its own, so any packet boundary is a page boundary where a listener may join;
/// a packet longer than a page's 255 segments goes on in continued pages.
public struct OggPageWriter: Sendable {
    /// The logical stream's serial number, on every page.
    public let serial: UInt32
    /// The next page's sequence number.
    private var sequence: UInt32 = 0

    public init(serial: UInt32) {
        self.serial = serial
    }

    /// Appends to `pages` the page or pages holding `packet` whole. The last of them carries `granulePosition`
    /// (the codec's position after the packet), any earlier ones -1 (no packet ends there). `isFirst` marks the
    /// stream's first page (its identification header), `isLast` its last.
    public mutating func append(_ packet: UnsafeRawBufferPointer, granulePosition: Int64, isFirst: Bool = false,
                                isLast: Bool = false, to pages: inout [UInt8]) {
        let segmentsPerPage = 255
        // A packet of a multiple of 255 bytes ends with a segment of 0 bytes, which needs a place too.
        let segments = packet.count / 255 + 1
        var written = 0
        var segment = 0
        repeat {
            let pageSegments = min(segmentsPerPage, segments - segment)
            let endsPacket = segment + pageSegments == segments
            var flags: UInt8 = segment > 0 ? 0x01 : 0
            if isFirst && segment == 0 { flags |= 0x02 }
            if isLast && endsPacket { flags |= 0x04 }
            let bodyLength = min(pageSegments * 255, packet.count - written)
            let body = UnsafeRawBufferPointer(rebasing: packet[written..<written + bodyLength])
            appendPage(body, segments: pageSegments, flags: flags, granule: endsPacket ? granulePosition : -1,
                       to: &pages)
            written += bodyLength
            segment += pageSegments
        } while segment < segments
    }

    /// Appends the page that ends the logical stream after its last packet went out unmarked (a live stream's
    /// link ends only when the next one begins): a page of no packet, flagged end of stream, with granule
    /// position -1 as no packet ends on it.
    public mutating func appendEnd(to pages: inout [UInt8]) {
        appendPage(UnsafeRawBufferPointer(start: nil, count: 0), segments: 0, flags: 0x04, granule: -1, to: &pages)
    }

    private mutating func appendPage(_ body: UnsafeRawBufferPointer, segments: Int, flags: UInt8, granule: Int64,
                                     to pages: inout [UInt8]) {
        let start = pages.count
        pages += Array("OggS".utf8)
        pages += [0, flags]
        pages += withUnsafeBytes(of: granule.littleEndian, Array.init)
        pages += withUnsafeBytes(of: serial.littleEndian, Array.init)
        pages += withUnsafeBytes(of: sequence.littleEndian, Array.init)
        pages += [0, 0, 0, 0]
        pages.append(UInt8(segments))
        // Every segment is full but the last, which holds the rest (0 to 254 bytes) and so ends the packet; a
        // page whose packet goes on ends on a full segment.
        var remaining = body.count
        for _ in 0..<segments {
            pages.append(UInt8(min(255, remaining)))
            remaining -= min(255, remaining)
        }
        pages += body
        sequence &+= 1
        let crc = pages.withUnsafeBytes { OggCRC.update(0, with: UnsafeRawBufferPointer(rebasing: $0[start...])) }
        withUnsafeBytes(of: crc.littleEndian) { pages.replaceSubrange(start + 22..<start + 26, with: $0) }
    }
}
