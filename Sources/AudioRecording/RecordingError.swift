/// Why a recording cannot be set up.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
    /// The name template cannot name pieces.
    case badTemplate(String, String)

    public var description: String {
        switch self {
        case .badTemplate(let template, let reason): "record path '\(template)': \(reason)"
        }
    }
}
