/// Why a stream ended, as the `end` event tells its subscribers.
public enum EndReason: Equatable, Sendable {
    /// The source ran out for good: standard input closed, a file without `loop` at its end, an HTTP source out
    /// of attempts. `failure` says what went wrong, or is nil when the source simply ended.
    case sourceEnded(failure: String?)
    /// The parser refused the stream's bytes (another codec, no audio); `error` is its error.
    case unsupportedFormat(error: String)
    /// A reload removed the stream from the configuration.
    case removedByReload
    /// A reload changed the stream's source or socket path: it starts again at once, on its new socket.
    case restartedByReload
    /// The daemon is stopping (SIGTERM, SIGINT).
    case daemonStopping

    /// The `reason` of the end event.
    public var name: String {
        switch self {
        case .sourceEnded: "sourceEnded"
        case .unsupportedFormat: "unsupportedFormat"
        case .removedByReload: "removedByReload"
        case .restartedByReload: "restartedByReload"
        case .daemonStopping: "daemonStopping"
        }
    }

    /// What went wrong, when the stream ended because something failed.
    public var failure: String? {
        switch self {
        case .sourceEnded(let failure): failure
        case .unsupportedFormat(let error): error
        case .removedByReload, .restartedByReload, .daemonStopping: nil
        }
    }
}
