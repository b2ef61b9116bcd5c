import AudioFileStream

/// Writes the pages of one logical Ogg stream (RFC 3533), what `OggReader` reads: packets are gathered on a page
/// until the caller ends it or its 255 lacing values run out, and a packet longer than what is left goes on in
/// continued pages. The first page written is flagged as the stream's beginning.
///
/// The page being gathered is kept in buffers reused from page to page; pages are appended to the caller's bytes.
public struct OggPageWriter: Sendable {
    /// The logical stream's serial number, on every page.
    public let serial: UInt32
    /// The next page's sequence number.
    private var sequence: UInt32 = 0
    /// The lacing values and body of the page being gathered.
    private var lacing: [UInt8] = []
    private var body: [UInt8] = []
    /// The granule position after the last packet that ends on the page being gathered; -1 while none does.
    private var granulePosition: Int64 = -1
    /// The page being gathered begins with the rest of a packet begun on the page before.
    private var isContinued = false

    public init(serial: UInt32) {
        self.serial = serial
    }

    /// Bytes of packets on the page being gathered.
    public var gatheredBytes: Int { body.count }

    /// Adds `packet` to the page being gathered; `granulePosition` is the codec's position after it. Pages that
    /// fill up on the way are appended to `pages`, the packet going on in the next.
    public mutating func add(_ packet: UnsafeRawBufferPointer, granulePosition: Int64, to pages: inout [UInt8]) {
        var written = 0
        while true {
            if lacing.count == 255 {
                writePage(flags: 0, granulePosition: self.granulePosition, to: &pages)
                isContinued = written > 0
            }
            let room = 255 - lacing.count
            let remaining = packet.count - written
            // A packet ends on a segment shorter than 255 bytes: one of a multiple of 255 bytes ends on 0 bytes.
            if remaining / 255 < room {
                lacing += repeatElement(255, count: remaining / 255)
                lacing.append(UInt8(remaining % 255))
                body += UnsafeRawBufferPointer(rebasing: packet[written...])
                self.granulePosition = granulePosition
                return
            }
            lacing += repeatElement(255, count: room)
            body += UnsafeRawBufferPointer(rebasing: packet[written..<written + room * 255])
            written += room * 255
        }
    }

    /// Appends the page being gathered to `pages`. `granulePosition` replaces the position after its last
    /// packet (an end trim on the last page); `isLast` flags the end of the stream, on an empty page when no
    /// packet is gathered (a live stream's link ends only when the next one begins). Nothing is written for an
    /// empty page that does not end the stream.
    public mutating func endPage(granulePosition: Int64? = nil, isLast: Bool = false, to pages: inout [UInt8]) {
        guard !lacing.isEmpty || isLast else { return }
        writePage(flags: isLast ? 0x04 : 0, granulePosition: granulePosition ?? self.granulePosition, to: &pages)
        isContinued = false
    }

    /// Appends `packet` on a page or pages of its own, so that a listener may join at the packet.
    public mutating func append(_ packet: UnsafeRawBufferPointer, granulePosition: Int64, isLast: Bool = false,
                                to pages: inout [UInt8]) {
        endPage(to: &pages)
        add(packet, granulePosition: granulePosition, to: &pages)
        endPage(isLast: isLast, to: &pages)
    }

    /// Writes the CRC of the page that starts at `start` and runs to the end of `pages`, whose CRC field is 0
    /// or stale (a page rewritten with what only the end of a file knows).
    public static func stampCRC(_ pages: inout [UInt8], pageAt start: Int) {
        pages.replaceSubrange(start + 22..<start + 26, with: [0, 0, 0, 0])
        let crc = pages.withUnsafeBytes { OggCRC.update(0, with: UnsafeRawBufferPointer(rebasing: $0[start...])) }
        withUnsafeBytes(of: crc.littleEndian) { pages.replaceSubrange(start + 22..<start + 26, with: $0) }
    }

    private mutating func writePage(flags: UInt8, granulePosition: Int64, to pages: inout [UInt8]) {
        let start = pages.count
        var flags = flags
        if isContinued { flags |= 0x01 }
        if sequence == 0 { flags |= 0x02 }
        pages += "OggS".utf8
        pages += [0, flags]
        withUnsafeBytes(of: granulePosition.littleEndian) { pages += $0 }
        withUnsafeBytes(of: serial.littleEndian) { pages += $0 }
        withUnsafeBytes(of: sequence.littleEndian) { pages += $0 }
        pages += [0, 0, 0, 0, UInt8(lacing.count)]
        pages += lacing
        pages += body
        sequence &+= 1
        Self.stampCRC(&pages, pageAt: start)
        lacing.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        self.granulePosition = -1
    }
}
