/// Bytes of ISO base media boxes (ISO/IEC 14496-12 §4.2), built into one array: a box's size is patched once its
/// body is written. Fields are big-endian.
package struct MP4BoxBuilder {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A box of `type` whose body `body` writes.
    package mutating func box(_ type: String, _ body: (inout MP4BoxBuilder) -> Void) {
        let start = bytes.count
        uint32(0)
        fourCC(type)
        body(&self)
        let size = UInt32(bytes.count - start)
        bytes.replaceSubrange(start..<start + 4, with: [UInt8](bigEndian: size))
    }

    /// A full box: a box whose body starts with a version and 24 bits of flags.
    package mutating func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0,
                          _ body: (inout MP4BoxBuilder) -> Void) {
        box(type) {
            $0.uint32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&$0)
        }
    }

    package mutating func uint8(_ value: UInt8) { bytes.append(value) }
    package mutating func uint16(_ value: UInt16) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    package mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    package mutating func uint64(_ value: UInt64) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
    package mutating func append(_ other: [UInt8]) { bytes += other }
    package mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

    /// A four-character code; iTunes' `©` keys are the byte 0xA9, as in Mac OS Roman.
    package mutating func fourCC(_ code: String) {
        bytes += code.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    /// The unity transformation matrix of `mvhd` and `tkhd` (§8.2.2).
    package mutating func unityMatrix() {
        for value: UInt32 in [0x1_0000, 0, 0, 0, 0x1_0000, 0, 0, 0, 0x4000_0000] { uint32(value) }
    }
}
