#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written.
public enum WriteError: Error, Equatable, CustomStringConvertible {
    /// The operating system refused an operation on the file (`errno`): a full disk, a folder not writable.
    case system(operation: String, path: String, errno: Int32)
    /// The container cannot hold this codec, or these parameters of it.
    case unsupportedFormat(String)

    public var description: String {
        switch self {
        case .system(let operation, let path, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case .unsupportedFormat(let reason):
            reason
        }
    }
}
