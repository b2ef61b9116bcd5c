import Foundation

/// A user name and password sent as HTTP Basic authentication (RFC 7617): those written in a source URL, or an
/// Icecast output's.
struct BasicCredentials: Equatable, Sendable {
    let user: String
    let password: String

    init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The credentials written in `url` (`http://USER:PASSWORD@host/…`, percent-escapes decoded, as curl reads
    /// them), or nil when it names no user.
    init?(in url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let user = components.user, !user.isEmpty || components.password != nil
        else { return nil }
        self.init(user: user, password: components.password ?? "")
    }

    /// The value of an `Authorization` header.
    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

extension URL {
    /// The URL without its user name and password: what logs, status, events and metrics show of a URL, and
    /// what the daemon keeps of one once its credentials are taken out.
    var withoutCredentials: URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true),
              components.user != nil || components.password != nil
        else { return absoluteURL }
        components.user = nil
        components.password = nil
        return components.url ?? absoluteURL
    }
}
