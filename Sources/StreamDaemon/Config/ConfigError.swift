/// A configuration the daemon refuses, located as an editor would: `file:line: key: what is wrong`.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// The 1-based line of the offending key or value, or nil when the file could not be read at all.
    public let line: Int?
    /// The key's path, as `streams[1].pace`, or empty for the document itself.
    public let key: String
    public let problem: String

    public init(file: String, line: Int?, key: String, problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(location): \(problem)" : "\(location): \(key): \(problem)"
    }
}

/// Every problem of a configuration, in the file's order: what `audiostreamd --check` lists, one a line.
public struct ConfigErrors: Error, Equatable, CustomStringConvertible {
    public let errors: [ConfigError]

    public init(errors: [ConfigError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
