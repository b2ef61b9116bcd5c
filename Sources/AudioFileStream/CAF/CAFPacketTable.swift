/// The body of a CAF `pakt` chunk: the packet count, PacketTableInfo's three fields, then per packet its size
/// and, for a format whose packets vary in frames, its frame count, each a BER-style variable-length integer
/// (7 bits a byte, most significant first, the top bit set on all but the last).
///
/// The entries are kept as stored (one to three bytes a packet, less than any decoded form) and read again in
/// order as the audio streams past, so cutting a packet allocates nothing. They are all read once when the table
/// is made, so a table that promises more packets than it holds, or an entry that does not parse, is refused
/// before any packet is cut.
struct CAFPacketTable {
    /// Bytes before the entries.
    static let headerLength = 24
    /// The largest table held: 16 MiB, at least 5.5 million packets (three bytes an entry), over 36 hours of
    /// 48 kHz AAC. A larger one is refused rather than held.
    static let largestTable = 16 << 20
    /// Bytes an entry's integer may take: enough for any value below 2^31.
    private static let longestInteger = 5

    /// Packets the table describes.
    let packetCount: Int64
    let info: PacketTableInfo
    /// The sum of the packets' sizes: the audio bytes they cover.
    let byteCount: Int64
    /// The largest packet's size.
    let largestPacket: Int
    private let entries: [UInt8]
    /// Whether each entry gives the packet's frames after its size.
    private let hasFrameCounts: Bool

    /// A position in the table: the next packet's entry, number and offset from the start of the audio.
    struct Cursor {
        fileprivate(set) var entry = 0
        fileprivate(set) var packet: Int64 = 0
        fileprivate(set) var offset: Int64 = 0
    }

    /// Reads `body`; nil when the header holds a negative count, an entry does not parse, a packet is empty or
    /// larger than `largestPacket`, or a packet's frames are 0. `hasEntries` is false for formats of constant-size
    /// packets, whose table is its header; `hasFrameCounts` is true for formats whose description gives no frames
    /// per packet.
    init?(body: UnsafeRawBufferPointer, hasEntries: Bool, hasFrameCounts: Bool, largestPacket limit: Int) {
        guard body.count >= Self.headerLength else { return nil }
        let packetCount = Int64(bitPattern: body.bigEndianUInt64(at: 0))
        let validFrames = Int64(bitPattern: body.bigEndianUInt64(at: 8))
        let priming = Int32(bitPattern: body.bigEndianUInt32(at: 16))
        let remainder = Int32(bitPattern: body.bigEndianUInt32(at: 20))
        guard packetCount >= 0, validFrames >= 0, priming >= 0, remainder >= 0 else { return nil }
        let entries = UnsafeRawBufferPointer(rebasing: body[Self.headerLength...])
        var position = 0
        var byteCount: Int64 = 0
        var largest = 0
        for _ in 0..<(hasEntries ? packetCount : 0) {
            guard let size = Self.integer(in: entries, at: &position), size > 0, size <= limit else { return nil }
            if hasFrameCounts {
                guard let frames = Self.integer(in: entries, at: &position), frames > 0 else { return nil }
            }
            byteCount += Int64(size)
            largest = max(largest, size)
        }
        self.packetCount = packetCount
        info = PacketTableInfo(validFrames: validFrames, primingFrames: priming, remainderFrames: remainder)
        self.byteCount = byteCount
        largestPacket = largest
        self.entries = Array(entries[..<position])
        self.hasFrameCounts = hasFrameCounts
    }

    /// The packet at `cursor`: its size and, when the table counts them, its frames; nil past the last packet.
    func packet(at cursor: Cursor) -> (size: Int, frames: Int?)? {
        guard cursor.packet < packetCount else { return nil }
        return entries.withUnsafeBytes { entries in
            var position = cursor.entry
            let size = Self.integer(in: entries, at: &position)!
            return (size, hasFrameCounts ? Self.integer(in: entries, at: &position)! : nil)
        }
    }

    /// Moves `cursor` past the packet it is at.
    func advance(_ cursor: inout Cursor) {
        entries.withUnsafeBytes { entries in
            var position = cursor.entry
            cursor.offset += Int64(Self.integer(in: entries, at: &position)!)
            if hasFrameCounts { _ = Self.integer(in: entries, at: &position) }
            cursor.entry = position
            cursor.packet += 1
        }
    }

    /// The integer at `position`, moving past it; nil when the bytes end inside it or it is 2^31 or more.
    private static func integer(in bytes: UnsafeRawBufferPointer, at position: inout Int) -> Int? {
        var value = 0
        for index in 0..<longestInteger {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            position += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value <= Int(Int32.max) ? value : nil }
            if index == longestInteger - 1 { return nil }
        }
        return nil
    }
}
