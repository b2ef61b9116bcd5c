import Glibc
import Logging

/// Log lines for the journal: a `<N>` syslog priority in front and no timestamp, which journald adds itself.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init() {}

    /// Whether standard error is connected to the journal: `$JOURNAL_STREAM` names its device and inode.
    public static func isStandardErrorJournal(environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return stream == "\(status.st_dev):\(status.st_ino)"
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
        let prefix = fields.map { "\($0.key)=\($0.value) " }.joined()
        // Lines are made whole first: one write each, so lines from several threads never interleave.
        let text = Array("<\(Self.priority(event.level))>\(prefix)\(event.message)\n".utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// syslog's priorities, from 7 (debug) to 2 (critical).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
