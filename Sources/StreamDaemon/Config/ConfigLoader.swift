import Foundation
import Yams

/// Reads `config.yaml` into a `DaemonConfig`, refusing anything doubtful with the file, line and key at fault.
///
/// Relative paths (sockets, files) are taken from the configuration file's folder, so the daemon behaves the
/// same whatever its working directory.
public struct ConfigLoader {
    public let file: String
    /// The problems found by the reading under way, which goes on past the first.
    private let findings = Findings()

    public init(file: String) {
        self.file = file
    }

    /// Reads and checks the file.
    /// - Throws: `ConfigError` for an unreadable file, bad YAML, an unknown key or a bad value: the first of
    ///   them in the file.
    public func load() throws -> DaemonConfig {
        do {
            return try check()
        } catch let all as ConfigErrors {
            throw all.errors[0]
        }
    }

    /// Reads and checks the file, going on past a problem to find every other one.
    /// - Throws: `ConfigErrors`, every problem found, in the file's order.
    public func check() throws -> DaemonConfig {
        guard let data = contents() else {
            throw ConfigErrors(errors: [ConfigError(file: file, line: nil, key: "", problem: "cannot read the file")])
        }
        guard data.count <= Self.maximumFileSize else {
            throw ConfigErrors(errors: [ConfigError(
                file: file, line: nil, key: "", problem: "larger than \(Self.maximumFileSize >> 20) MiB: not a configuration")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigErrors(errors: [ConfigError(file: file, line: nil, key: "", problem: "the file is not UTF-8 text")])
        }
        findings.errors = []
        let config = attempt { try parse(text) } ?? nil
        guard let config, findings.errors.isEmpty else {
            throw ConfigErrors(errors: findings.errors.enumerated().sorted {
                ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
            }.map(\.element))
        }
        return config
    }

    /// The longest file read: far more than any configuration, so that a path naming a device or an endless pipe
    /// gives an error instead of filling the memory of a running daemon on a reload.
    static let maximumFileSize = 16 << 20

    /// The file's bytes, read to its end or one byte past `maximumFileSize`, so that a FIFO (a process writing the
    /// configuration) serves as a file does; nil when it cannot be opened or read.
    private func contents() -> Data? {
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        } catch {
            return nil
        }
    }

    /// Problems found so far.
    private final class Findings {
        var errors: [ConfigError] = []
    }

    /// What `body` gives, or nil once the problem it found is noted: reading goes on with the next part.
    func attempt<Value>(_ body: () throws -> Value) -> Value? {
        do {
            return try body()
        } catch let error as ConfigError {
            findings.errors.append(error)
        } catch {
            findings.errors.append(ConfigError(file: file, line: nil, key: "", problem: "\(error)"))
        }
        return nil
    }

    /// Checks YAML text as if it were the file's; the problems of parts that can be read alone (a section, a
    /// stream, a value) are noted as found and give nil, so that the rest is read too.
    private func parse(_ text: String) throws -> DaemonConfig? {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigError(file: file, line: 1, key: "", problem: "the file is empty: it needs a streams list")
            }
            root = node
        } catch let error as YamlError {
            throw syntaxError(error, in: text)
        }
        let document = try mapping(root, key: "", allowed: ["control", "streams", "metrics", "http", "relay"])
        let control = attempt { try document["control"].map { try socket($0, key: "control") } }
        let metrics = attempt { try document["metrics"].map { try metricsAddress($0) } }
        let http = attempt { try document["http"].map { try httpServer($0) } }
        let relay = attempt { try document["relay"].map { try self.relay($0) } }
        let items: [Node]
        if let streamsNode = document["streams"] {
            // A relay's streams are the master's mounts: it may list none of its own.
            guard let list = streamsNode.sequence, !list.isEmpty || document["relay"] != nil else {
                throw error(streamsNode, "streams", "expected a non-empty list of streams")
            }
            items = Array(list)
        } else {
            guard document["relay"] != nil else {
                throw ConfigError(file: file, line: root.mark?.line, key: "streams",
                                  problem: "missing: list at least one stream, or relay a master's (relay:)")
            }
            items = []
        }
        let read = items.enumerated().map { index, item in attempt { try stream(item, key: "streams[\(index)]") } ?? nil }
        // Clashes between the streams read are noted too, so that one run lists every problem of the file.
        let streams = read.enumerated().compactMap { index, stream in
            stream.map { ReadStream(index: index, config: $0, node: items[index]) }
        }
        var reserved: [String: String] = [:]
        if let control = control ?? nil { reserved[control.path] = "control" }
        if case .unix(let path) = metrics ?? nil, let node = document["metrics"] {
            if reserved[path] != nil { note(node, "metrics", "\(path) is already the control socket") }
            reserved[path] = "metrics"
        }
        checkUnique(streams, reserved: reserved)
        if let http, http != nil { checkMounts(streams) }
        let pushed = http.map { withPushPasswords(streams, http: $0) }
        guard let control, let metrics, let http, let relay, let pushed, pushed.count == items.count else { return nil }
        return DaemonConfig(controlSocket: control, streams: pushed, metrics: metrics, http: http, relay: relay)
    }

    /// `HOST:PORT` with an IP address (IPv6 in brackets) or a host name, or else a Unix socket path.
    private func metricsAddress(_ node: Node) throws -> MetricsAddress {
        let text = try string(node, key: "metrics")
        guard text.contains(":"), !text.contains("/") else {
            return .unix(path: try socketPath(node, key: "metrics"))
        }
        guard let (host, port) = Self.tcpAddress(text) else {
            throw error(node, "metrics", "expected IP:PORT or NAME:PORT such as 127.0.0.1:9464, or a socket path; "
                        + "got '\(text)'")
        }
        return .tcp(host: host, port: port)
    }

    /// `HOST:PORT` with an IP address (IPv6 in brackets) or a host name, which is resolved when the server
    /// starts; nil for anything else.
    static func tcpAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let bracketed = host.hasPrefix("[") && host.hasSuffix("]")
        if bracketed { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port),
              IPAddressText.isAddress(host) || !bracketed && isHostName(host)
        else { return nil }
        return (host, port)
    }

    /// A DNS name (RFC 1123): labels of ASCII letters, digits and inner hyphens, joined by dots.
    private static func isHostName(_ text: String) -> Bool {
        text.utf8.count <= 253 && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
