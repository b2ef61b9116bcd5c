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

    /// `streams` with each push source's password: its own, else the server's `sourcePassword`. A push stream
    /// without the HTTP server, without its mount, or without a password is noted, and left out.
    func withPushPasswords(_ streams: [ReadStream], http: HTTPServerConfig?) -> [StreamConfig] {
        streams.compactMap { read in
            attempt { () throws -> StreamConfig in
                var stream = read.config
                guard case .push(var push) = stream.source else { return stream }
                let (location, key) = (read.node(of: "source"), "streams[\(read.index)].source")
                guard let http else {
                    throw error(location, key, "a push source needs the http: server, where source clients connect")
                }
                guard stream.http else {
                    throw error(read.node(of: "http"), "streams[\(read.index)].http",
                                "a push source needs its mount on the HTTP server, where source clients connect")
                }
                guard let password = push.password ?? http.sourcePassword else {
                    throw error(location, key, "a push source needs a password: set http.sourcePassword, or "
                                + "sourcePassword for this stream")
                }
                push.password = password
                stream.source = .push(push)
                return stream
            }
        }
    }
}
