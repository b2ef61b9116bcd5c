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

    /// The file's bytes, read to its end, so that a FIFO (a process writing the configuration) serves as a file
    /// does; nil when it cannot be opened or read.
    private func contents() -> Data? {
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            return nil
        }
    }

    /// Problems found so far.
    private final class Findings {
        var errors: [ConfigError] = []
    }

    /// What `body` gives, or nil once the problem it found is noted: reading goes on with the next part.
    private func attempt<Value>(_ body: () throws -> Value) -> Value? {
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
        let document = try mapping(root, key: "", allowed: ["control", "streams", "metrics", "http"])
        let control = attempt { try document["control"].map { try socket($0, key: "control") } }
        let metrics = attempt { try document["metrics"].map { try metricsAddress($0) } }
        let http = attempt { try document["http"].map { try httpServer($0) } }
        guard let streamsNode = document["streams"] else {
            throw ConfigError(file: file, line: root.mark?.line, key: "streams", problem: "missing: list at least one stream")
        }
        guard let items = streamsNode.sequence, !items.isEmpty else {
            throw error(streamsNode, "streams", "expected a non-empty list of streams")
        }
        let read = items.enumerated().map { index, item in attempt { try stream(item, key: "streams[\(index)]") } ?? nil }
        // What sockets and mounts clash is only known of a file whose every part was read.
        guard let control, let metrics, let http else { return nil }
        let streams = read.compactMap { $0 }
        guard streams.count == items.count else { return nil }
        var reserved: [String: String] = [:]
        if let control { reserved[control.path] = "control" }
        if case .unix(let path) = metrics, let node = document["metrics"] {
            if reserved[path] != nil { throw error(node, "metrics", "\(path) is already the control socket") }
            reserved[path] = "metrics"
        }
        try checkUnique(streams, items: Array(items), reserved: reserved)
        if http != nil { try checkMounts(streams, items: Array(items)) }
        return DaemonConfig(controlSocket: control, streams: streams, metrics: metrics, http: http)
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
    private static func tcpAddress(_ text: String) -> (host: String, port: Int)? {
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

    // MARK: - HTTP

    private static let httpServerKeys: Set<String> = [
        "listen", "relayPassword", "headerTimeout", "formatWait", "maxListeners",
    ]

    /// `http: {listen: "127.0.0.1:8000", relayPassword: …, headerTimeout: …, formatWait: …, maxListeners: …}`.
    private func httpServer(_ node: Node) throws -> HTTPServerConfig {
        let fields = try mapping(node, key: "http", allowed: Self.httpServerKeys)
        let listenNode = try required(fields, "listen", in: node, key: "http")
        let text = try string(listenNode, key: "http.listen")
        guard let (host, port) = Self.tcpAddress(text) else {
            throw error(listenNode, "http.listen", "expected IP:PORT or NAME:PORT such as 127.0.0.1:8000; got '\(text)'")
        }
        var config = HTTPServerConfig(host: host, port: port)
        if let passwordNode = fields["relayPassword"] {
            let password = try string(passwordNode, key: "http.relayPassword")
            guard !password.isEmpty else { throw error(passwordNode, "http.relayPassword", "expected a password") }
            config.relayPassword = password
        }
        config.headerTimeout = try seconds(fields["headerTimeout"], key: "http.headerTimeout") ?? config.headerTimeout
        config.formatWait = try seconds(fields["formatWait"], key: "http.formatWait") ?? config.formatWait
        if let maximumNode = fields["maxListeners"] {
            guard maximumNode.scalar != nil, let maximum = maximumNode.int, maximum > 0 else {
                throw error(maximumNode, "http.maxListeners", "expected a whole number of connections, 1 or more")
            }
            config.maxListeners = maximum
        }
        return config
    }

    /// A mount is a path of its own: one stream each, and not one the server answers itself.
    private func checkMounts(_ streams: [StreamConfig], items: [Node]) throws {
        var mounts: [String: String] = [:]
        for (index, (stream, node)) in zip(streams, items).enumerated() where stream.http {
            let location = node.mapping.map(Self.fields)?["mount"] ?? node
            let key = "streams[\(index)].mount"
            if HTTPListenerRequest.isReserved(stream.mount) {
                throw error(location, key, "\(stream.mount) is the server's own; choose another mount")
            }
            if let owner = mounts[stream.mount] {
                throw error(location, key, "\(stream.mount) is already the mount of stream '\(owner)'")
            }
            mounts[stream.mount] = stream.name
        }
    }

    // MARK: - Streams

    private static let streamKeys: Set<String> = [
        "name", "source", "pace", "loop", "socket", "queueSeconds", "disconnectAfter", "historySeconds",
        "writeInterval", "connectTimeout", "stallTimeout", "reconnect", "mount", "http", "outputs",
    ]
    private static let fileKeys = ["pace", "loop"]
    private static let httpKeys = ["connectTimeout", "stallTimeout", "reconnect"]

    /// A stream, or nil when one of its values has a problem, noted with those of its other values.
    private func stream(_ node: Node, key: String) throws -> StreamConfig? {
        let fields = try mapping(node, key: key, allowed: Self.streamKeys)
        let name = attempt { () throws -> String in
            let nameNode = try required(fields, "name", in: node, key: key)
            let name = try string(nameNode, key: "\(key).name")
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else { throw error(nameNode, "\(key).name", "use letters, digits, '-', '_' or '.' (got '\(name)')") }
            return name
        }
        let source = attempt { try self.source(fields, in: node, key: key) }
        let socket = attempt { try self.socket(try required(fields, "socket", in: node, key: key), key: "\(key).socket") }
        let defaults = SubscriberLimits()
        let queueSeconds = attempt { try seconds(fields["queueSeconds"], key: "\(key).queueSeconds") }
        let disconnectAfter = attempt { try seconds(fields["disconnectAfter"], key: "\(key).disconnectAfter") }
        let historySeconds = attempt {
            try seconds(fields["historySeconds"], key: "\(key).historySeconds", allowZero: true)
        }
        let writeInterval = attempt {
            try seconds(fields["writeInterval"], key: "\(key).writeInterval", allowZero: true,
                        maximum: SubscriberLimits.maximumWriteInterval)
        }
        let mount = attempt { try fields["mount"].map { try self.mount($0, key: "\(key).mount") } }
        let http = attempt { try fields["http"].map { try bool($0, key: "\(key).http") } }
        let outputs = attempt { try fields["outputs"].map { try self.outputs($0, key: "\(key).outputs") } }
        guard let name, let source, let socket, let queueSeconds, let disconnectAfter, let historySeconds,
              let writeInterval, let mount, let http, let outputs
        else { return nil }
        let limits = SubscriberLimits(
            queueSeconds: queueSeconds ?? defaults.queueSeconds,
            disconnectAfter: disconnectAfter ?? defaults.disconnectAfter,
            historySeconds: historySeconds ?? defaults.historySeconds,
            writeInterval: writeInterval ?? defaults.writeInterval)
        return StreamConfig(name: name, source: source, socket: socket, limits: limits, mount: mount, http: http ?? true,
                            outputs: outputs ?? [])
    }

    private static let outputKeys: Set<String> = ["icecast", "passwordFile", "reconnect"]

    /// `[{icecast: "http://source:PASSWORD@host:8000/mount", passwordFile: …, reconnect: …}]`.
    private func outputs(_ node: Node, key: String) throws -> [IcecastOutputConfig] {
        guard let items = node.sequence else { throw error(node, key, "expected a list of outputs") }
        return try items.enumerated().map { index, item in
            let key = "\(key)[\(index)]"
            let fields = try mapping(item, key: key, allowed: Self.outputKeys)
            let urlNode = try required(fields, "icecast", in: item, key: key)
            let text = try string(urlNode, key: "\(key).icecast")
            guard var components = URLComponents(string: text), components.scheme == "http",
                  let host = components.host, !host.isEmpty, components.path.count > 1
            else { throw error(urlNode, "\(key).icecast", "expected http://source:PASSWORD@HOST:PORT/MOUNT") }
            var password = components.password
            if let fileNode = fields["passwordFile"] {
                password = try secret(fromFile: fileNode, key: "\(key).passwordFile")
            }
            guard let password, !password.isEmpty else {
                throw error(urlNode, "\(key).icecast", "no password: put it in the URL or in passwordFile")
            }
            let user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? "source"
            components.user = nil
            components.password = nil
            var output = IcecastOutputConfig(url: components.url!, user: user, password: password)
            if let node = fields["reconnect"] {
                guard let policy = try reconnect(node, key: "\(key).reconnect") else {
                    throw error(node, "\(key).reconnect", "an output always reconnects; give its delays")
                }
                output.reconnect = policy
            }
            return output
        }
    }

    /// A password kept in a file, such as a systemd credential: its first line.
    private func secret(fromFile node: Node, key: String) throws -> String {
        let path = resolve(try string(node, key: key))
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
              let line = text.split(separator: "\n", omittingEmptySubsequences: false).first, !line.isEmpty
        else { throw error(node, key, "cannot read a password from \(path)") }
        return String(line)
    }

    /// A mount path such as `/jazz.mp3`: a slash, then characters a URL path carries as they are.
    private func mount(_ node: Node, key: String) throws -> String {
        let text = try string(node, key: key)
        let allowed = "-._~!$&'()*+,;=:@/"
        guard text.count > 1, text.hasPrefix("/"),
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || allowed.contains($0)) })
        else { throw error(node, key, "expected a path such as /jazz.mp3 (got '\(text)')") }
        return text
    }

    private func source(_ fields: [String: Node], in node: Node, key: String) throws -> SourceConfig {
        let sourceNode = try required(fields, "source", in: node, key: key)
        let text = try string(sourceNode, key: "\(key).source")
        let isHTTP = text.hasPrefix("http://") || text.hasPrefix("https://")
        let isFile = text.hasPrefix("file:")
        for option in Self.fileKeys where !isFile && fields[option] != nil {
            throw error(fields[option]!, "\(key).\(option)", "applies to file sources only")
        }
        for option in Self.httpKeys where !isHTTP && fields[option] != nil {
            throw error(fields[option]!, "\(key).\(option)", "applies to http(s) sources only")
        }
        if text == "stdin" { return .standardInput }
        if isHTTP { return .http(try http(text, fields, sourceNode: sourceNode, key: key)) }
        guard isFile, text.count > 5 else {
            throw error(sourceNode, "\(key).source",
                        "expected stdin, file:PATH or an http(s) URL, got '\(Self.hidingPassword(text))'")
        }
        let path = resolve(String(text.dropFirst(5)))
        var isFolder: ObjCBool = false
        guard FileManager.default.isReadableFile(atPath: path),
              FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        else { throw error(sourceNode, "\(key).source", "cannot read \(path)") }
        guard !isFolder.boolValue else { throw error(sourceNode, "\(key).source", "\(path) is a folder, not a file") }
        let pace = try fields["pace"].map { try self.pace($0, key: "\(key).pace") } ?? .realTime(speed: 1)
        let loop = try fields["loop"].map { try bool($0, key: "\(key).loop") } ?? false
        return .file(path: path, pace: pace, loop: loop)
    }

    /// `text`, a URL too broken to parse, with what stands between `://` and `@` hidden: a refusal reaches
    /// the log, and the password must not.
    private static func hidingPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return text[..<scheme.upperBound] + "…" + text[at...]
    }

    private func http(_ text: String, _ fields: [String: Node], sourceNode: Node, key: String) throws -> HTTPSourceConfig {
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
            throw error(sourceNode, "\(key).source", "not a valid URL: '\(Self.hidingPassword(text))'")
        }
        if let port = url.port, !(1...65535).contains(port) {
            throw error(sourceNode, "\(key).source", "port \(port) is out of range")
        }
        var config = HTTPSourceConfig(url: url)
        config.connectTimeout = try seconds(fields["connectTimeout"], key: "\(key).connectTimeout") ?? config.connectTimeout
        config.stallTimeout = try seconds(fields["stallTimeout"], key: "\(key).stallTimeout") ?? config.stallTimeout
        if let node = fields["reconnect"] {
            config.reconnect = try reconnect(node, key: "\(key).reconnect")
        }
        return config
    }

    private static let reconnectKeys: Set<String> = ["initialDelay", "maxDelay", "attempts"]

    /// `reconnect: true|false`, or the policy's settings.
    private func reconnect(_ node: Node, key: String) throws -> ReconnectPolicy? {
        guard node.mapping != nil else { return try bool(node, key: key) ? ReconnectPolicy() : nil }
        let fields = try mapping(node, key: key, allowed: Self.reconnectKeys)
        var policy = ReconnectPolicy()
        policy.initialDelay = try seconds(fields["initialDelay"], key: "\(key).initialDelay") ?? policy.initialDelay
        policy.maximumDelay = try seconds(fields["maxDelay"], key: "\(key).maxDelay") ?? policy.maximumDelay
        guard policy.maximumDelay >= policy.initialDelay else {
            throw error(fields["maxDelay"] ?? fields["initialDelay"]!, "\(key).maxDelay", "must not be less than initialDelay")
        }
        if let attemptsNode = fields["attempts"] {
            guard attemptsNode.scalar != nil, let attempts = attemptsNode.int, attempts > 0 else {
                throw error(attemptsNode, "\(key).attempts", "expected a whole number of attempts, 1 or more")
            }
            policy.attempts = attempts
        }
        return policy
    }

    private func pace(_ node: Node, key: String) throws -> Pace {
        switch node.string {
        case "realtime": return .realTime(speed: 1)
        case "none": return .unpaced
        default:
            guard let speed = node.float, (0.01...1000).contains(speed) else {
                throw error(node, key, "expected realtime, none or a speed from 0.01 to 1000 (times real time)")
            }
            return .realTime(speed: speed)
        }
    }

    private static let socketKeys: Set<String> = ["path", "mode", "owner", "group"]

    private func socket(_ node: Node, key: String) throws -> SocketConfig {
        guard node.mapping != nil else { return SocketConfig(path: try socketPath(node, key: key)) }
        let fields = try mapping(node, key: key, allowed: Self.socketKeys)
        var socket = SocketConfig(path: try socketPath(try required(fields, "path", in: node, key: key), key: "\(key).path"))
        if let modeNode = fields["mode"] {
            let text = try string(modeNode, key: "\(key).mode")
            guard (3...4).contains(text.count), let mode = UInt32(text, radix: 8), mode <= 0o777 else {
                throw error(modeNode, "\(key).mode", "expected octal permissions such as \"0660\", got '\(text)'")
            }
            socket.mode = mode
        }
        // Checked here, as starting would: a user or group that does not exist cannot own the socket file.
        if let ownerNode = fields["owner"] {
            let owner = try string(ownerNode, key: "\(key).owner")
            guard getpwnam(owner) != nil else { throw error(ownerNode, "\(key).owner", "no user \(owner)") }
            socket.owner = owner
        }
        if let groupNode = fields["group"] {
            let group = try string(groupNode, key: "\(key).group")
            guard getgrnam(group) != nil else { throw error(groupNode, "\(key).group", "no group \(group)") }
            socket.group = group
        }
        return socket
    }

    /// Stream names and socket paths name one thing each, and only one stream can read standard input.
    /// Stream names, socket paths (`reserved` holds the control and metrics sockets) and stdin are each taken once.
    private func checkUnique(_ streams: [StreamConfig], items: [Node], reserved: [String: String]) throws {
        var names: Set<String> = []
        var sockets = reserved
        var readsStandardInput = false
        for (index, (stream, node)) in zip(streams, items).enumerated() {
            let fields = node.mapping.map(Self.fields) ?? [:]
            if !names.insert(stream.name).inserted {
                throw error(fields["name"] ?? node, "streams[\(index)].name", "duplicate stream name '\(stream.name)'")
            }
            if let owner = sockets[stream.socket.path] {
                throw error(fields["socket"] ?? node, "streams[\(index)].socket",
                            "\(stream.socket.path) is already the socket of \(owner)")
            }
            sockets[stream.socket.path] = "stream '\(stream.name)'"
            if stream.source == .standardInput {
                if readsStandardInput {
                    throw error(fields["source"] ?? node, "streams[\(index)].source", "only one stream can read stdin")
                }
                readsStandardInput = true
            }
        }
    }

    // MARK: - Values

    private func mapping(_ node: Node, key: String, allowed: Set<String>) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw error(node, key, "expected a mapping of keys to values") }
        var fields: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? ""
            let path = key.isEmpty ? name : "\(key).\(name)"
            guard allowed.contains(name) else {
                throw error(keyNode, path, "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
            }
            fields[name] = value
        }
        return fields
    }

    private static func fields(_ mapping: Node.Mapping) -> [String: Node] {
        Dictionary(mapping.map { ($0.key.string ?? "", $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    private func required(_ fields: [String: Node], _ name: String, in node: Node, key: String) throws -> Node {
        guard let value = fields[name] else { throw error(node, "\(key).\(name)", "missing") }
        return value
    }

    private func string(_ node: Node, key: String) throws -> String {
        guard let scalar = node.scalar else { throw error(node, key, "expected a single value") }
        return scalar.string
    }

    private func socketPath(_ node: Node, key: String) throws -> String {
        let text = try string(node, key: key)
        guard !text.isEmpty else { throw error(node, key, "expected a path") }
        let path = resolve(text)
        let limit = SocketFile.maximumPathLength
        guard path.utf8.count <= limit else { throw error(node, key, "the socket path is longer than \(limit) bytes") }
        return path
    }

    private func bool(_ node: Node, key: String) throws -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error(node, key, "expected true or false") }
        return value
    }

    /// Longest accepted duration: a day is already far beyond any sensible queue or wait.
    private static let maximumSeconds = 86400.0

    private func seconds(_ node: Node?, key: String, allowZero: Bool = false,
                         maximum: Double = maximumSeconds) throws -> Double? {
        guard let node else { return nil }
        let lowest = allowZero ? "0" : "more than 0"
        guard node.scalar != nil, let value = node.float, value <= maximum, value > 0 || (allowZero && value == 0)
        else { throw error(node, key, "expected seconds, \(lowest) and at most \(Int(maximum))") }
        return value
    }

    /// A path as written, or taken from the configuration file's folder when relative.
    private func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        return folder.appendingPathComponent(path).standardizedFileURL.path
    }

    /// The line where `key`, first written at `mark`, is written again in the same mapping: Yams locates only the
    /// first one, and the second is the one to remove.
    private static func repeatedLine(of key: String, firstAt mark: Mark, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = mark.column - 1
        for (index, line) in lines.enumerated().dropFirst(mark.line) {
            let rest = line.unicodeScalars.dropFirst(indent)
            let isSameKey = String(rest).hasPrefix("\(key):")
                && line.unicodeScalars.prefix(indent).allSatisfy { $0 == " " || $0 == "-" }
            if isSameKey { return index + 1 }
        }
        return mark.line
    }

    private func error(_ node: Node, _ key: String, _ problem: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, key: key, problem: problem)
    }

    private func syntaxError(_ error: YamlError, in text: String) -> ConfigError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return ConfigError(file: file, line: mark.line, key: "", problem: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.sorted()[0]
            return ConfigError(file: file, line: Self.repeatedLine(of: key, firstAt: context.mark, in: text), key: key,
                               problem: "duplicate key")
        default:
            return ConfigError(file: file, line: nil, key: "", problem: "YAML: \(error)")
        }
    }
}
