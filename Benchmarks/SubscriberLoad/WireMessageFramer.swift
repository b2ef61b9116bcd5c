import AudioStreamProtocol

/// Cuts a byte stream of audiostreamd wire messages into whole messages, keeping a partial one for the next
/// bytes: a u32 big-endian length counting the type and payload, a u8 type, then the payload (docs/protocol.md).
struct WireMessageFramer {
    private var pending: [UInt8] = []

    /// Calls `body` with the type and payload of each message completed by `bytes`, in order.
    /// - Throws: `LoadError` for a length the protocol forbids, or what `body` throws.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) throws -> Void) throws {
        if pending.isEmpty {
            let used = try Self.messages(in: bytes, body)
            pending.append(contentsOf: bytes[used...])
        } else {
            pending.append(contentsOf: bytes)
            let used = try pending.withUnsafeBytes { try Self.messages(in: $0, body) }
            pending.removeFirst(used)
        }
    }

    /// Hands over the whole messages at the start of `bytes`; returns the bytes they take.
    private static func messages(
        in bytes: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        var start = 0
        while bytes.count - start >= WireProtocol.headerSize {
            let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
            guard length >= 1, length <= WireProtocol.maximumMessageSize else {
                throw LoadError("the daemon sent a message length of \(length)")
            }
            let end = start + 4 + length
            guard end <= bytes.count else { break }
            try body(bytes[start + 4], UnsafeRawBufferPointer(rebasing: bytes[(start + WireProtocol.headerSize)..<end]))
            start = end
        }
        return start
    }
}
