import Foundation

/// The streams that relay a master's mounts: one a mount, beside the configured streams.
struct RelayedStreams: Equatable {
    /// A mount the master lists that is not relayed, and why.
    struct Skipped: Equatable {
        let mount: String
        let reason: String
    }

    let streams: [StreamConfig]
    let skipped: [Skipped]

    /// A stream for each of `mounts` that `relay` can relay beside `configured` and the `reserved` socket paths
    /// (control, metrics): named after its mount, served at that mount, its socket in `relay.sockets`. A mount
    /// whose name, mount or socket is taken, or that the HTTP server answers itself, is skipped.
    init(relay: RelayConfig, mounts: [String], besides configured: [StreamConfig], reserved: Set<String> = []) {
        var names = Set(configured.map(\.name))
        var paths = Set(configured.map(\.mount))
        var sockets = reserved.union(configured.map(\.socket.path))
        var streams: [StreamConfig] = []
        var skipped: [Skipped] = []
        for mount in mounts {
            let name = Self.name(of: mount)
            let socket = URL(fileURLWithPath: relay.sockets).appendingPathComponent("\(name).sock").path
            let reason: String? =
                if HTTPRoute.isReserved(mount) { "the HTTP server answers \(mount) itself" }
                else if !ConfigLoader.isPathSegment(name) { "no stream name can be made of it" }
                else if paths.contains(mount) { "a configured stream has that mount" }
                else if names.contains(name) { "stream '\(name)' already exists" }
                else if socket.utf8.count > SocketFile.maximumPathLength {
                    "its socket path would be longer than \(SocketFile.maximumPathLength) bytes"
                } else if sockets.contains(socket) { "socket \(socket) is taken" }
                else { nil }
            if let reason {
                skipped.append(Skipped(mount: mount, reason: reason))
                continue
            }
            names.insert(name)
            paths.insert(mount)
            sockets.insert(socket)
            streams.append(StreamConfig(name: name, source: .http(HTTPSourceConfig(url: relay.url(of: mount))),
                                        socket: SocketConfig(path: socket), mount: mount,
                                        onDemand: relay.onDemand ? relay.idle : nil))
        }
        self.streams = streams
        self.skipped = skipped
    }

    /// The mount without its leading slash, each other slash a `-`: `/live/jazz.mp3` is `live-jazz.mp3`.
    static func name(of mount: String) -> String {
        String(mount.dropFirst().map { $0 == "/" ? "-" : $0 })
    }
}

extension RelayConfig {
    /// `mount` on the master, with the relay's user and password, which Icecast's relays send with their requests.
    func url(of mount: String) -> URL {
        var components = URLComponents(url: master, resolvingAgainstBaseURL: true)!
        components.percentEncodedPath = mount
        components.user = user
        components.password = password
        return components.url!
    }
}
