#if canImport(Glibc)
import Glibc
#endif

/// A failure reported to the user as one line on standard error.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// A failed system call: `action` and the reason errno gives.
    static func system(_ action: String) -> CommandFailure {
        CommandFailure("\(action): \(String(cString: strerror(errno)))")
    }
}
