#if canImport(Glibc)
import Glibc
#endif

/// A failure reported to the user as one line on standard error.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// An input in which the parser found no whole packet: a file cut short, or one it cannot read from there
    /// (probe says what its headers said).
    static func noPacket(in input: String) -> CommandFailure {
        CommandFailure("\(input): no whole audio packet found")
    }

    /// A failed system call: `action` and the reason errno gives.
    static func system(_ action: String) -> CommandFailure {
        CommandFailure("\(action): \(String(cString: strerror(errno)))")
    }
}
