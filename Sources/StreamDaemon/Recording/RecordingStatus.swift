import AudioRecording
import AudioStreamProtocol

/// What `audiostream status` shows of a recording.
struct RecordingStatus: Sendable {
    var template: String
    /// The piece being written, and its bytes so far.
    var currentPiece: String?
    var currentBytes: Int64 = 0
    var pieces = 0
    var bytesWritten: Int64 = 0
    var lastError: String?

    var json: JSON {
        .object([
            ("path", .string(template)),
            ("currentPiece", .optional(currentPiece, JSON.string)),
            ("currentBytes", .number(currentBytes)),
            ("pieces", .number(pieces)),
            ("bytesWritten", .number(bytesWritten)),
            ("lastError", .optional(lastError, JSON.string)),
        ])
    }
}
