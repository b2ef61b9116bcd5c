import NIOCore

/// Who is at the other end of an HTTP connection, as Icecast's admin lists show it: its address and user agent.
struct ClientIdentity: Equatable, Sendable {
    let address: String
    let userAgent: String

    /// The client of `channel`, which sent `request`.
    init(_ channel: Channel, _ request: HTTPRequest) {
        self.init(address: channel.remoteAddress?.ipAddress ?? "", request)
    }
}

extension ClientIdentity {
    /// The client at `address`, which sent `request`.
    init(address: String, _ request: HTTPRequest) {
        self.address = address
        userAgent = request.head.headers.first(name: "user-agent") ?? ""
    }
}
