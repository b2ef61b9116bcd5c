import NIOCore
import NIOHTTP1

/// A request head as the HTTP server serves it: NIOHTTP1's, with its target read as a percent-decoded path and a
/// query.
struct HTTPRequest {
    let head: HTTPRequestHead
    /// The path, percent-decoded, without the query.
    let path: String
    /// The query string without its `?`, if any.
    let query: String?

    /// The longest request head accepted (its target and header fields): far more than any player or relay sends,
    /// so that a client cannot make the daemon buffer without end.
    static let maximumHeadSize = 8192

    /// Reads `head`, as far as the server takes it: HTTP/1.0 or 1.1, a path, and a Host for HTTP/1.1.
    /// - Throws: `HTTPRefusal` with a 400 naming what is wrong.
    init(_ head: HTTPRequestHead) throws(HTTPRefusal) {
        guard head.version == .http1_0 || head.version == .http1_1 else {
            throw HTTPRefusal(.badRequest, "unsupported protocol version")
        }
        // By bytes: every player's reload comes this way, and characters cost a grapheme break each.
        let target = head.uri.utf8
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let pathPart = Substring(target[..<(question ?? target.endIndex)])
        guard pathPart.utf8.first == UInt8(ascii: "/"), let path = Self.percentDecoded(pathPart) else {
            throw HTTPRefusal(.badRequest, "malformed request target")
        }
        // RFC 9112 §3.2: a server answers an HTTP/1.1 request without Host with 400.
        guard head.version == .http1_0 || head.headers.contains(name: "host") else {
            throw HTTPRefusal(.badRequest, "HTTP/1.1 request without Host")
        }
        self.head = head
        self.path = path
        query = question.map { String(Substring(target[target.index(after: $0)...])) }
    }

    var isHTTP11: Bool { head.version == .http1_1 }
    /// Whether the client wants the answer's head alone.
    var isHead: Bool { head.method == .HEAD }
    /// Whether the listener asked for ICY metadata blocks in the audio.
    var wantsICYMetadata: Bool { head.headers.first(name: "icy-metadata") == "1" }
    /// The user and password of the request's Basic authentication, if any.
    var credentials: BasicCredentials? { BasicCredentials(authorization: head.headers.first(name: "authorization")) }

    /// `%XX` escapes decoded; nil for a broken escape or bytes that are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index = utf8.index(after: index)
                continue
            }
            let digits = utf8[utf8.index(after: index)...].prefix(2)
            guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
            index = digits.endIndex
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A request the server does not serve: answered with `status` and why, as plain text, then closed.
struct HTTPRefusal: Error {
    let status: HTTPResponseStatus
    let reason: String
    /// Whether the answer is HTTP/1.1: for a request the server read and took, in the request's version; else 1.0,
    /// which every client reads.
    let http11: Bool
    /// Fields the answer needs, such as a 405's `Allow`.
    let fields: [(String, String)]

    init(_ status: HTTPResponseStatus, _ reason: String, http11: Bool = false, fields: [(String, String)] = []) {
        self.status = status
        self.reason = reason
        self.http11 = http11
        self.fields = fields
    }

    /// A 401 asking for Basic authentication, with why.
    static func unauthorized(_ reason: String, http11: Bool) -> HTTPRefusal {
        HTTPRefusal(.unauthorized, reason, http11: http11,
                    fields: [("WWW-Authenticate", "Basic realm=\"audiostreamd\"")])
    }

    /// The answer's bytes.
    var answer: ByteBuffer {
        HTTPResponse.refusal(status, http11: http11, reason: reason, fields: fields)
    }
}
