import Foundation
import Yams

/// A stream's `source:` and the options that belong to its kind: file pacing, HTTP timeouts and reconnection, and
/// its subscriber socket.
extension ConfigLoader {
    func source(_ fields: [String: Node], in node: Node, key: String) throws -> SourceConfig {
        let sourceNode = try required(fields, "source", in: node, key: key)
        if sourceNode.mapping != nil {
            for option in Self.httpKeys where fields[option] != nil {
                throw error(fields[option]!, "\(key).\(option)", "does not apply to a playlist")
            }
            return try composition(sourceNode, key: "\(key).source", besideSource: fields)
        }
        let text = try string(sourceNode, key: "\(key).source")
        let isHTTP = text.hasPrefix("http://") || text.hasPrefix("https://")
        let isFile = text.hasPrefix("file:")
        let isPush = text == "push"
        for option in Self.fileKeys where !isFile && fields[option] != nil {
            throw error(fields[option]!, "\(key).\(option)", "applies to file sources only")
        }
        for option in Set(Self.httpKeys + Self.pushKeys) where fields[option] != nil {
            let (http, push) = (Self.httpKeys.contains(option), Self.pushKeys.contains(option))
            guard !(isHTTP && http || isPush && push) else { continue }
            let kinds = [http ? "http(s)" : nil, push ? "push" : nil].compactMap { $0 }.joined(separator: " and ")
            throw error(fields[option]!, "\(key).\(option)", "applies to \(kinds) sources only")
        }
        if text == "stdin" { return .standardInput }
        if isHTTP { return .http(try http(text, fields, sourceNode: sourceNode, key: key)) }
        if isPush { return .push(try push(fields, key: key)) }
        guard isFile, text.count > 5 else {
            throw error(sourceNode, "\(key).source",
                        "expected stdin, push, file:PATH or an http(s) URL, got '\(Self.hidingPassword(text))'")
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
    static func hidingPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return text[..<scheme.upperBound] + "…" + text[at...]
    }

    func http(_ text: String, _ fields: [String: Node], sourceNode: Node, key: String) throws -> HTTPSourceConfig {
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

    static let reconnectKeys: Set<String> = ["initialDelay", "maxDelay", "attempts"]

    /// `reconnect: true|false`, or the policy's settings.
    func reconnect(_ node: Node, key: String) throws -> ReconnectPolicy? {
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

    func pace(_ node: Node, key: String) throws -> Pace {
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

    static let socketKeys: Set<String> = ["path", "mode", "owner", "group"]

    func socket(_ node: Node, key: String) throws -> SocketConfig {
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
}
