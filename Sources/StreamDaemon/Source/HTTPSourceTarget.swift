import Foundation

/// Where one attempt of an HTTP source connects: the URL, without credentials, and the credentials to send.
struct HTTPSourceTarget: Equatable {
    /// The URL to request; it holds no user name or password.
    let url: URL
    let credentials: BasicCredentials?

    /// A target for `url`, taking out the credentials it holds.
    init(url: URL) {
        self.url = url.withoutCredentials
        credentials = BasicCredentials(in: url)
    }

    /// The target of a redirect to `location`, resolved against this URL; nil when it is not a URL. Credentials
    /// written in the location are its own; otherwise ours go along only to the same origin (scheme, host and
    /// port), as curl's do: a station cannot hand its listeners' password to another host.
    func redirected(to location: String) -> HTTPSourceTarget? {
        guard let resolved = URL(string: location, relativeTo: url)?.absoluteURL, resolved.host != nil else {
            return nil
        }
        let next = HTTPSourceTarget(url: resolved)
        guard next.credentials == nil, next.url.origin == url.origin else { return next }
        return HTTPSourceTarget(url: next.url, credentials: credentials)
    }

    private init(url: URL, credentials: BasicCredentials?) {
        self.url = url
        self.credentials = credentials
    }
}

extension URL {
    /// Scheme, host and port (RFC 6454), the default port written out, letters in lower case.
    fileprivate var origin: String {
        let scheme = scheme?.lowercased() ?? ""
        let port = port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host?.lowercased() ?? ""):\(port)"
    }
}
