/// The modes of a Vorbis setup header, read backwards from its end as FFmpeg's and liboggz's parsers do: the
/// modes are the header's last fields, while everything before them (codebooks, floors, residues, mappings)
/// would take a full Vorbis decoder to walk.
///
/// Vorbis packs bits from each byte's least significant end, so the header's bits read backwards from the last
/// byte's top bit are: padding zeros, the framing bit, then each mode from the last — mapping (8 bits, below
/// 64), transform type (16 bits, 0), window type (16 bits, 0), block flag (1 bit) — and before them the mode
/// count less one (6 bits). The largest count whose fields all check out, and whose stated count agrees, is taken.
struct VorbisModes {
    /// Each mode's block flag: true for long blocks.
    let isLong: [Bool]

    init?(setup packet: UnsafeRawBufferPointer) {
        var reader = BackwardBits(packet)
        // Skip the padding up to the framing bit.
        while reader.remaining > 0, reader.read(1) == 0 {}
        guard reader.remaining > 0 else { return nil }
        let afterFraming = reader
        var count = 0
        var found = 0
        // 41 bits a mode, and the count field and the header's start before them.
        while reader.remaining >= 41 + 6 + 56, count < 64 {
            guard reader.read(8) < 64, reader.read(16) == 0, reader.read(16) == 0 else { break }
            _ = reader.read(1)
            count += 1
            var peek = reader
            if peek.read(6) + 1 == count { found = count }
        }
        guard found > 0 else { return nil }
        reader = afterFraming
        var flags = [Bool](repeating: false, count: found)
        for mode in (0..<found).reversed() {
            _ = reader.read(40)
            flags[mode] = reader.read(1) == 1
        }
        isLong = flags
    }
}

/// Reads a Vorbis packet's bits from its last backwards.
private struct BackwardBits {
    private let bytes: UnsafeRawBufferPointer
    /// The number of bits not yet read, counting from the packet's start.
    private(set) var remaining: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        remaining = bytes.count * 8
    }

    /// The `count`-bit field that ends where reading stands (its top bit is read first); 0 past the start.
    mutating func read(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            guard remaining > 0 else { return value }
            remaining -= 1
            value = value << 1 | Int(bytes[remaining >> 3] >> (remaining & 7) & 1)
        }
        return value
    }
}
