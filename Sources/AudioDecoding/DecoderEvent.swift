import AudioFileStream

/// What the decoder reports, synchronously and in stream order.
public enum DecoderEvent {
    /// The PCM that follows has this format: sent before the first PCM and whenever the format changes.
    case format(PCMFormat)
    /// Decoded frames, valid only during the callback.
    case pcm(PCMBuffer)
    /// A packet could not be decoded; decoding goes on with the next ones.
    case error(DecodeError)
    /// The packets of this format (a DataFormat's format ID) cannot be decoded here: they are left out until
    /// a DataFormat that can be. Said once per such DataFormat.
    case unsupportedFormat(FourCharCode)
}

/// Interleaved PCM frames in the decoder's memory, valid only during the callback.
public struct PCMBuffer {
    public let bytes: UnsafeRawBufferPointer
    public let format: PCMFormat

    /// Frames in the buffer: one sample of every channel each.
    public var frames: Int { bytes.count / format.bytesPerFrame }
}

/// A decoding failure, with the decoding library's explanation.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
