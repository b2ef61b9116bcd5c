#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written.
public enum WriteError: Error, Equatable, CustomStringConvertible {
    /// The operating system refused an operation on the file (`errno`): a full disk, a folder not writable.
    case system(operation: String, path: String, errno: Int32)
    /// The container cannot hold this codec, or these parameters of it.
    case unsupportedFormat(String)
    /// The input cannot be written as asked: a range past its end, a format that changes within a cut, inputs
    /// of another codec than the first.
    case input(String)
    /// Something other than a regular file has the name a file was to be written under (a symbolic link, a
    /// device, a FIFO, a folder): it is neither written through nor replaced.
    case notRegularFile(path: String, kind: String)

    public var description: String {
        switch self {
        case .system(let operation, let path, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case .unsupportedFormat(let reason), .input(let reason):
            reason
        case .notRegularFile(let path, let kind):
            "\(path) is \(kind), not a regular file: it is left as it is (name a file, or - for standard output)"
        }
    }
}
