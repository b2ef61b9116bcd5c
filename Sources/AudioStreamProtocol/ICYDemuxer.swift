/// Splits an ICY body (the answer to `Icy-MetaData: 1`) into audio and metadata blocks, in any chunking.
///
/// The body repeats `metaint` audio bytes, one length byte L, then L × 16 bytes of metadata text; L = 0 means
/// no block. Audio goes on as slices of the chunk, never copied; only a block split across chunks is gathered.
public struct ICYDemuxer {
    /// Audio bytes between two length bytes, from the `icy-metaint` header.
    public let metaint: Int
    private var state: State
    /// A block being gathered across chunks.
    private var block: [UInt8] = []

    private enum State {
        case audio(left: Int)
        case length
        case metadata(left: Int)
    }

    /// The largest block: a length byte of 255.
    public static let maximumBlockSize = 255 * 16

    /// - Parameter metaint: audio bytes between blocks, 1 or more.
    public init(metaint: Int) {
        precondition(metaint > 0, "icy-metaint must be positive")
        self.metaint = metaint
        state = .audio(left: metaint)
    }

    /// Hands on the chunk's audio and its complete metadata blocks in stream order.
    /// - Parameters:
    ///   - audio: called with each run of audio bytes.
    ///   - metadata: called with each complete block of one or more 16-byte units, after the audio before it.
    public mutating func split(
        _ chunk: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) throws -> Void,
        metadata: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var position = 0
        while position < chunk.count {
            switch state {
            case .audio(let left):
                let count = min(left, chunk.count - position)
                try audio(UnsafeRawBufferPointer(rebasing: chunk[position..<position + count]))
                position += count
                state = count == left ? .length : .audio(left: left - count)
            case .length:
                let size = Int(chunk[position]) * 16
                position += 1
                state = size == 0 ? .audio(left: metaint) : .metadata(left: size)
            case .metadata(let left):
                let count = min(left, chunk.count - position)
                let part = UnsafeRawBufferPointer(rebasing: chunk[position..<position + count])
                position += count
                if count < left {
                    block.append(contentsOf: part)
                    state = .metadata(left: left - count)
                    continue
                }
                state = .audio(left: metaint)
                if block.isEmpty {
                    try metadata(part)
                } else {
                    block.append(contentsOf: part)
                    defer { block.removeAll(keepingCapacity: true) }
                    try block.withUnsafeBytes { try metadata($0) }
                }
            }
        }
    }
}
