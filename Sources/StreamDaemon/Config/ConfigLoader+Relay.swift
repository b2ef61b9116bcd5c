import Foundation
import Yams

/// The `relay:` section: the daemon as a relay of an Icecast master's mounts.
extension ConfigLoader {
    static let relayKeys: Set<String> = [
        "master", "user", "password", "passwordFile", "interval", "onDemand", "idle", "sockets",
    ]

    /// `relay: {master: http://HOST:PORT, user: relay, password: …, interval: 120, onDemand: false, idle: 30,
    /// sockets: run/relay}`.
    func relay(_ node: Node) throws -> RelayConfig {
        let fields = try mapping(node, key: "relay", allowed: Self.relayKeys)
        let masterNode = try required(fields, "master", in: node, key: "relay")
        let text = try string(masterNode, key: "relay.master")
        guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme),
              let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
              components.user == nil, components.query == nil, let master = components.url
        else {
            throw error(masterNode, "relay.master",
                        "expected http://HOST:PORT, the master's address alone (got '\(Self.hidingPassword(text))')")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw error(masterNode, "relay.master", "port \(port) is out of range")
        }
        let password: String
        switch (fields["password"], fields["passwordFile"]) {
        case (let node?, nil): password = try self.password(node, key: "relay.password")!
        case (nil, let file?): password = try secret(fromFile: file, key: "relay.passwordFile")
        case (_?, _?): throw error(node, "relay", "give password or passwordFile, not both")
        case (nil, nil): throw error(node, "relay.password", "missing: the master's relay password (or passwordFile)")
        }
        let socketsNode = try required(fields, "sockets", in: node, key: "relay")
        var config = RelayConfig(master: master, password: password,
                                 sockets: try socketPath(socketsNode, key: "relay.sockets"))
        if let userNode = fields["user"] {
            config.user = try string(userNode, key: "relay.user")
            guard !config.user.isEmpty, !config.user.contains(":") else {
                throw error(userNode, "relay.user", "expected a user name without ':'")
            }
        }
        config.interval = try seconds(fields["interval"], key: "relay.interval") ?? config.interval
        config.onDemand = try fields["onDemand"].map { try bool($0, key: "relay.onDemand") } ?? config.onDemand
        config.idle = try seconds(fields["idle"], key: "relay.idle") ?? config.idle
        return config
    }
}
