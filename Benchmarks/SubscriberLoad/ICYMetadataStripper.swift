/// Takes the ICY metadata blocks out of a listener's stream (`Icy-MetaData: 1`): after every `interval` bytes of
/// audio, a length byte L and L × 16 bytes of metadata.
struct ICYMetadataStripper {
    private enum State {
        case audio(left: Int)
        case length
        case metadata(left: Int)
    }

    private let interval: Int
    private var state: State

    /// Blocks between every `interval` bytes of audio (the answer's `icy-metaint`).
    init(interval: Int) {
        self.interval = interval
        state = .audio(left: interval)
    }

    /// The audio bytes of `bytes`, the next stream bytes.
    mutating func audio(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var audio: [UInt8] = []
        audio.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            switch state {
            case .audio(let left):
                let count = min(left, bytes.count - index)
                audio += bytes[index..<index + count]
                index += count
                state = count == left ? .length : .audio(left: left - count)
            case .length:
                let length = Int(bytes[index]) * 16
                index += 1
                state = length == 0 ? .audio(left: interval) : .metadata(left: length)
            case .metadata(let left):
                let count = min(left, bytes.count - index)
                index += count
                state = count == left ? .audio(left: interval) : .metadata(left: left - count)
            }
        }
        return audio
    }
}
