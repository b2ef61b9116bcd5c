extension [UInt8] {
    /// Appends the low `count` bytes of `value`, most significant first.
    mutating func append(bigEndian value: UInt64, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    /// Appends the low `count` bytes of `value`, least significant first.
    mutating func append(littleEndian value: UInt64, count: Int) {
        for index in 0..<count { append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// The bytes of `value`, most significant first.
    package init<Value: FixedWidthInteger>(bigEndian value: Value) {
        self = []
        append(bigEndian: UInt64(truncatingIfNeeded: value), count: Value.bitWidth / 8)
    }

    /// The bytes of `value`, least significant first.
    init<Value: FixedWidthInteger>(littleEndian value: Value) {
        self = []
        append(littleEndian: UInt64(truncatingIfNeeded: value), count: Value.bitWidth / 8)
    }
}
