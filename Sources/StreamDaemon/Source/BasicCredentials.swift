import Foundation

/// A user name and password sent as HTTP Basic authentication (RFC 7617): those written in a source URL, an
/// Icecast output's, or those a client of the HTTP server sends.
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

    /// The credentials of an `Authorization` header's value, or nil when there is none or it is not Basic
    /// authentication with a user name and password in UTF-8.
    init?(authorization: String?) {
        guard let authorization, authorization.lowercased().hasPrefix("basic "),
              let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let colon = decoded.firstIndex(of: UInt8(ascii: ":")),
              let user = String(validating: decoded[..<colon], as: UTF8.self),
              let password = String(validating: decoded[decoded.index(after: colon)...], as: UTF8.self)
        else { return nil }
        self.init(user: user, password: password)
    }

    /// Whether the password is `expected`, compared by `matches(_:expected:)`.
    func hasPassword(_ expected: String) -> Bool {
        Self.matches(Array(password.utf8), expected: Array(expected.utf8))
    }

    /// Whether `given` is `expected`, in a time that depends on `given`'s length alone: each byte sent is compared
    /// with a byte of `expected`, read round and round, and the lengths are compared as numbers, so that neither a
    /// first difference nor a length that differs ends the comparison early, and nothing of `expected` shows.
    static func matches<Expected: RandomAccessCollection<UInt8>>(_ given: [UInt8], expected: Expected) -> Bool
    where Expected.Index == Int {
        guard !expected.isEmpty else { return given.isEmpty }
        var difference = UInt(bitPattern: given.count ^ expected.count)
        var index = 0
        for byte in given {
            difference |= UInt(byte ^ expected[index])
            index += 1
            index = index == expected.count ? 0 : index
        }
        return difference == 0
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
