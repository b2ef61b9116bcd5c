import Foundation
import Yams

/// One stream's entry in `streams:` and the rules that bind the streams together (unique names, sockets, stdin).
extension ConfigLoader {
    static let streamKeys: Set<String> = [
        "name", "source", "pace", "loop", "socket", "queueSeconds", "disconnectAfter", "historySeconds",
        "writeInterval", "connectTimeout", "stallTimeout", "reconnect", "mount", "http", "outputs", "record",
        "sourcePassword", "codec", "fallback", "hls", "monitor", "silence", "maxListeners", "maxListenerDuration",
        "overflow",
    ]
    static let fileKeys = ["pace", "loop"]
    static let httpKeys = ["connectTimeout", "stallTimeout", "reconnect"]

    /// A stream, or nil when one of its values has a problem, noted with those of its other values.
    func stream(_ node: Node, key: String) throws -> StreamConfig? {
        let fields = try mapping(node, key: key, allowed: Self.streamKeys)
        let name = attempt { () throws -> String in
            let nameNode = try required(fields, "name", in: node, key: key)
            let name = try string(nameNode, key: "\(key).name")
            guard Self.isPathSegment(name) else { throw error(nameNode, "\(key).name", "use letters, digits, '-', '_' or '.' (got '\(name)')") }
            return name
        }
        let source = attempt { try self.source(fields, in: node, key: key) }
        let fallback = attempt { try fields["fallback"].map { try self.fallback($0, key: "\(key).fallback") } }
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
        let sources = [source, fallback ?? nil].compactMap { $0 }
        let record = attempt {
            try section("record", of: fields, key: key, sources: sources, read: self.record(_:key:),
                        check: checkRecordable)
        }
        let hls = attempt {
            try section("hls", of: fields, key: key, sources: sources, read: self.hls(_:key:), check: checkSegmentable)
        }
        let monitor = attempt { try self.monitor(fields, key: key, sources: sources) }
        let listeners = attempt { try listenerPolicy(fields, key: key, ownMaximum: true) }
        guard let name, let source, let fallback, let socket, let queueSeconds, let disconnectAfter,
              let historySeconds, let writeInterval, let mount, let http, let outputs, let record, let hls,
              let monitor, let listeners
        else { return nil }
        let limits = SubscriberLimits(
            queueSeconds: queueSeconds ?? defaults.queueSeconds,
            disconnectAfter: disconnectAfter ?? defaults.disconnectAfter,
            historySeconds: historySeconds ?? defaults.historySeconds,
            writeInterval: writeInterval ?? defaults.writeInterval)
        return StreamConfig(name: name, source: source, socket: socket, limits: limits, mount: mount, http: http ?? true,
                            outputs: outputs ?? [], record: record, fallback: fallback, hls: hls,
                            monitor: monitor, listeners: listeners)
    }

    /// A stream's section `name` (`record:`, `hls:`, `silence:`) as `read` reads it, checked by `check` against each of the
    /// stream's sources it can judge before anything plays (a file's codec); nil when the stream has none.
    func section<Value>(
        _ name: String, of fields: [String: Node], key: String, sources: [SourceConfig],
        read: (Node, String) throws -> Value, check: (SourceConfig, Value, Node, String) throws -> Void
    ) throws -> Value? {
        guard let node = fields[name] else { return nil }
        let value = try read(node, "\(key).\(name)")
        for source in sources { try check(source, value, node, "\(key).\(name)") }
        return value
    }

    static let outputKeys: Set<String> = ["icecast", "passwordFile", "reconnect"]

    /// `[{icecast: "http://source:PASSWORD@host:8000/mount", passwordFile: …, reconnect: …}]`.
    func outputs(_ node: Node, key: String) throws -> [IcecastOutputConfig] {
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
    func secret(fromFile node: Node, key: String) throws -> String {
        let path = resolve(try string(node, key: key))
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
              let line = text.split(separator: "\n", omittingEmptySubsequences: false).first, !line.isEmpty
        else { throw error(node, key, "cannot read a password from \(path)") }
        return String(line)
    }

    /// A mount path such as `/jazz.mp3`: a slash, then characters a URL path carries as they are.
    func mount(_ node: Node, key: String) throws -> String {
        let text = try string(node, key: key)
        guard MountPath.isValid(text) else {
            throw error(node, key, "expected a path such as /jazz.mp3 (got '\(text)')")
        }
        return text
    }


    /// A stream read without a problem: its place in the list, its configuration and its node.
    struct ReadStream {
        let index: Int
        let config: StreamConfig
        let node: Node

        /// The node of the stream's `key`, or the stream's own when it has none.
        func node(of key: String) -> Node {
            node.mapping.map(ConfigLoader.fields)?[key] ?? node
        }
    }

    /// Stream names, socket paths (`reserved` holds the control and metrics sockets) and stdin are each taken once:
    /// every clash is noted.
    func checkUnique(_ streams: [ReadStream], reserved: [String: String]) {
        var names: Set<String> = []
        var sockets = reserved
        var readsStandardInput = false
        for stream in streams {
            let (config, key) = (stream.config, "streams[\(stream.index)]")
            if !names.insert(config.name).inserted {
                note(stream.node(of: "name"), "\(key).name", "duplicate stream name '\(config.name)'")
            }
            if let owner = sockets[config.socket.path] {
                note(stream.node(of: "socket"), "\(key).socket", "\(config.socket.path) is already the socket of \(owner)")
            } else {
                sockets[config.socket.path] = "stream '\(config.name)'"
            }
            if config.source == .standardInput {
                if readsStandardInput { note(stream.node(of: "source"), "\(key).source", "only one stream can read stdin") }
                readsStandardInput = true
            }
        }
    }

    /// Notes a problem at `node` and goes on.
    func note(_ node: Node, _ key: String, _ problem: String) {
        attempt { throw error(node, key, problem) }
    }
}
