/// Why a stream cannot go on: Apple's error code, where the reader met the problem, and a sentence for a person
/// saying what was found. `AudioFileStream` throws it from the call that fed the bytes, and again from every
/// later call, since nothing after it can be read.
public struct AudioFileStreamFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Apple's code for the failure (`fmt?` for an unsupported data format, `dta?` for malformed bytes …).
    public let error: AudioFileStreamError
    /// The absolute stream offset of what could not be read.
    public let offset: Int64
    /// What was found and why it cannot be read.
    public let reason: String

    public init(_ error: AudioFileStreamError, at offset: Int64, _ reason: String) {
        self.error = error
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(error): \(reason)" }
}
