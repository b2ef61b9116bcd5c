import Glibc

/// A failure that ends the run, said as one line.
struct LoadError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// A failed system call: `action` and the reason errno gives.
    static func system(_ action: String) -> LoadError {
        LoadError("\(action): \(String(cString: strerror(errno)))")
    }
}
