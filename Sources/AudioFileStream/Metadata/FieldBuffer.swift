/// One field's bytes as they stream past: the first `limit` are kept, the rest only counted.
struct FieldBuffer {
    /// How many bytes may be kept.
    let limit: Int
    private(set) var kept: [UInt8] = []
    /// Every byte appended, kept or not.
    private(set) var byteCount = 0

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// True when every byte appended was kept.
    var isComplete: Bool { kept.count == byteCount }

    /// True when `limit` bytes are kept.
    var isFull: Bool { kept.count == limit }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let room = min(limit - kept.count, bytes.count)
        if room > 0 { kept.append(contentsOf: bytes.prefix(room)) }
        byteCount += bytes.count
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends as many of `bytes` as still fit and returns how many that was: for a fixed-size header that may
    /// arrive across several chunks.
    mutating func fill(from bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(limit - kept.count, bytes.count)
        append(UnsafeRawBufferPointer(rebasing: bytes.prefix(taken)))
        return taken
    }
}
