/// An error that ends a stream, with a line for a person saying what was found and what to do about it.
///
/// A reader fails when its container cannot be read as a stream at all (an MP4 whose index follows the audio)
/// or is broken beyond resyncing (an MP4 box that lies about its size). `parse` and `finish` then throw this
/// error, and do so again if called after it.
public struct AudioFileStreamFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Apple's error for the fault, such as `.notOptimized` or `.invalidFile`.
    public let error: AudioFileStreamError
    public let message: String

    public init(_ error: AudioFileStreamError, _ message: String) {
        self.error = error
        self.message = message
    }

    public var description: String { "\(error): \(message)" }
}
