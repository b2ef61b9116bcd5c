import Yams

/// `source: push`: its own options, and what it needs of the rest of the file (the HTTP server and a password).
extension ConfigLoader {
    static let pushKeys = ["sourcePassword", "stallTimeout", "codec"]

    /// `source: push`, with the stream's own `sourcePassword`, if any, its `stallTimeout` and its `codec`.
    func push(_ fields: [String: Node], key: String) throws -> PushSourceConfig {
        var config = PushSourceConfig()
        config.password = try password(fields["sourcePassword"], key: "\(key).sourcePassword")
        config.stallTimeout = try seconds(fields["stallTimeout"], key: "\(key).stallTimeout") ?? config.stallTimeout
        if let node = fields["codec"] {
            let name = try string(node, key: "\(key).codec")
            guard let codec = MountCodec(name: name) else {
                let names = MountCodec.names.map(\.name).joined(separator: ", ")
                throw error(node, "\(key).codec", "expected one of \(names), got '\(name)'")
            }
            config.codec = codec
        }
        return config
    }

    /// `streams` with each push source's password: its own, else the server's `sourcePassword`.
    /// - Throws: `ConfigError` for a push stream without the HTTP server, without its mount, or without a password.
    func withPushPasswords(_ streams: [StreamConfig], items: [Node], http: HTTPServerConfig?) throws -> [StreamConfig] {
        try zip(streams, items).enumerated().map { index, element in
            var (stream, node) = element
            guard case .push(var push) = stream.source else { return stream }
            let fields = node.mapping.map(Self.fields) ?? [:]
            let (location, key) = (fields["source"] ?? node, "streams[\(index)].source")
            guard let http else {
                throw error(location, key, "a push source needs the http: server, where source clients connect")
            }
            guard stream.http else {
                throw error(fields["http"] ?? node, "streams[\(index)].http",
                            "a push source needs its mount on the HTTP server, where source clients connect")
            }
            guard let password = push.password ?? http.sourcePassword else {
                throw error(location, key, "a push source needs a password: set http.sourcePassword, or sourcePassword "
                            + "for this stream")
            }
            push.password = password
            stream.source = .push(push)
            return stream
        }
    }
}
