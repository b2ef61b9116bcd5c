/// Where a writer puts a file's bytes: appended in order, and patched in place where only the end knows what an
/// early header says (frame counts, totals, sizes).
public protocol WriteTarget {
    /// Bytes written so far: the offset the next append lands at.
    var size: Int64 { get }
    /// Appends `bytes` at the end.
    /// - Throws: `WriteError` when the bytes cannot be stored (the disk is full, the file was lost).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws
    /// Writes `bytes` over bytes already written, from `offset`; `offset + bytes.count` must not pass `size`.
    /// - Throws: `WriteError` as `append`.
    mutating func overwrite(at offset: Int64, with bytes: [UInt8]) throws
}

extension WriteTarget {
    /// Appends an array's bytes.
    public mutating func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }
}

/// A file written to memory: for tests, and for headers that are built before they are placed.
public struct ByteArrayTarget: WriteTarget {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var size: Int64 { Int64(bytes.count) }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        self.bytes += bytes
    }

    public mutating func overwrite(at offset: Int64, with bytes: [UInt8]) {
        let start = Int(offset)
        self.bytes.replaceSubrange(start..<start + bytes.count, with: bytes)
    }
}
