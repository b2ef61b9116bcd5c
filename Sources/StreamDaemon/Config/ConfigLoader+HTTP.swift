import Foundation
import Yams

/// The `http:` section: the listener's address, limits and timeouts, and the mounts its streams take.
extension ConfigLoader {
    static let httpServerKeys: Set<String> = [
        "listen", "relayPassword", "adminPassword", "sourcePassword", "headerTimeout", "formatWait", "maxListeners",
        "deadAirTimeout", "name", "accessLog", "maxListenerDuration", "overflow", "auth",
    ]
    static let authKeys: Set<String> = ["listenerAdd", "listenerRemove", "timeout", "onFailure"]

    /// `http: {listen: "127.0.0.1:8000", relayPassword: …, adminPassword: …, sourcePassword: …, headerTimeout: …,
    /// formatWait: …, maxListeners: …, deadAirTimeout: …, name: …, accessLog: …, maxListenerDuration: …,
    /// overflow: […], auth: {…}}`.
    func httpServer(_ node: Node) throws -> HTTPServerConfig {
        let fields = try mapping(node, key: "http", allowed: Self.httpServerKeys)
        let listenNode = try required(fields, "listen", in: node, key: "http")
        let text = try string(listenNode, key: "http.listen")
        guard let (host, port) = Self.tcpAddress(text) else {
            throw error(listenNode, "http.listen", "expected IP:PORT or NAME:PORT such as 127.0.0.1:8000; got '\(text)'")
        }
        var config = HTTPServerConfig(host: host, port: port)
        config.relayPassword = try password(fields["relayPassword"], key: "http.relayPassword")
        config.adminPassword = try password(fields["adminPassword"], key: "http.adminPassword")
        config.sourcePassword = try password(fields["sourcePassword"], key: "http.sourcePassword")
        if let nameNode = fields["name"] {
            config.name = try string(nameNode, key: "http.name")
            guard !config.name.isEmpty else { throw error(nameNode, "http.name", "expected the station's name") }
        }
        config.listeners = try listenerPolicy(fields, key: "http", ownMaximum: false)
        config.auth = try fields["auth"].map(listenerAuth)
        if let logNode = fields["accessLog"] {
            let text = try string(logNode, key: "http.accessLog")
            guard !text.isEmpty else { throw error(logNode, "http.accessLog", "expected a file's path") }
            config.accessLog = resolve(text)
        }
        config.headerTimeout = try seconds(fields["headerTimeout"], key: "http.headerTimeout") ?? config.headerTimeout
        config.formatWait = try seconds(fields["formatWait"], key: "http.formatWait") ?? config.formatWait
        config.deadAirTimeout = try seconds(fields["deadAirTimeout"], key: "http.deadAirTimeout")
            ?? config.deadAirTimeout
        if let maximumNode = fields["maxListeners"] {
            guard maximumNode.scalar != nil, let maximum = maximumNode.int, maximum > 0 else {
                throw error(maximumNode, "http.maxListeners", "expected a whole number of connections, 1 or more")
            }
            config.maxListeners = maximum
        }
        return config
    }

    /// `auth: {listenerAdd: URL, listenerRemove: URL, timeout: 5, onFailure: deny}`.
    private func listenerAuth(_ node: Node) throws -> ListenerAuthConfig {
        let fields = try mapping(node, key: "http.auth", allowed: Self.authKeys)
        let address = { (node: Node, key: String) throws -> URL in
            let text = try self.string(node, key: key)
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
                  url.host?.isEmpty == false
            else { throw self.error(node, key, "expected the backend's http(s) URL (got '\(Self.hidingPassword(text))')") }
            return url
        }
        var config = ListenerAuthConfig(
            listenerAdd: try address(try required(fields, "listenerAdd", in: node, key: "http.auth"), "http.auth.listenerAdd"))
        config.listenerRemove = try fields["listenerRemove"].map { try address($0, "http.auth.listenerRemove") }
        config.timeout = try seconds(fields["timeout"], key: "http.auth.timeout", maximum: 60) ?? config.timeout
        if let failureNode = fields["onFailure"] {
            let text = try string(failureNode, key: "http.auth.onFailure")
            guard let failure = ListenerAuthConfig.Failure(rawValue: text) else {
                throw error(failureNode, "http.auth.onFailure", "expected deny or allow (got '\(text)')")
            }
            config.onFailure = failure
        }
        return config
    }

    /// A password that is not empty, if given.
    func password(_ node: Node?, key: String) throws -> String? {
        guard let node else { return nil }
        let password = try string(node, key: key)
        guard !password.isEmpty else { throw error(node, key, "expected a password") }
        return password
    }

    /// A mount is a path of its own: one stream each, and not one the server answers itself. Every clash is noted.
    func checkMounts(_ streams: [ReadStream]) {
        var mounts: [String: String] = [:]
        for stream in streams where stream.config.http {
            let (mount, location, key) = (stream.config.mount, stream.node(of: "mount"), "streams[\(stream.index)].mount")
            if HTTPRoute.isReserved(mount) {
                note(location, key, "\(mount) is the server's own; choose another mount")
            } else if let owner = mounts[mount] {
                note(location, key, "\(mount) is already the mount of stream '\(owner)'")
            } else {
                mounts[mount] = stream.config.name
            }
        }
    }
}
