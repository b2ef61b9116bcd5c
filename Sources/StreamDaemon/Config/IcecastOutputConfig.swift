import Foundation

/// A mount on an Icecast server that a stream pushes itself to as a source (`outputs:` in `config.yaml`).
public struct IcecastOutputConfig: Equatable, Sendable {
    /// The server's address and the mount, such as `http://icecast.example:8000/live.mp3`, without credentials.
    public var url: URL
    /// The source user, `source` unless the URL names another.
    public var user: String
    public var password: String
    /// How to connect again after a failure: for ever, by default from 1 s up to 60 s.
    public var reconnect: ReconnectPolicy

    public init(url: URL, user: String = "source", password: String, reconnect: ReconnectPolicy = ReconnectPolicy()) {
        self.url = url
        self.user = user
        self.password = password
        self.reconnect = reconnect
    }

    /// The mount's path on the server.
    var mount: String { url.path.isEmpty ? "/" : url.path }
}
