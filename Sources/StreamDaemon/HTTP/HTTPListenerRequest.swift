import NIOCore
import NIOHTTP1

/// A listener's request head, read from the bytes received so far.
///
/// Only what a stream server needs: `GET` and `HEAD` of a path, HTTP/1.0 or 1.1, and the header fields. Heads
/// are bounded (`maximumHeadSize`) so a client cannot make the daemon buffer without end.
struct HTTPListenerRequest: Equatable {
    enum Method: String { case get = "GET", head = "HEAD" }

    let method: Method
    /// The path, percent-decoded, without the query.
    let path: String
    /// The query string without its `?`, if any.
    let query: String?
    /// HTTP/1.1 rather than 1.0.
    let isHTTP11: Bool
    /// The header fields in order, names lowercased.
    let headers: [(name: String, value: String)]

    /// The longest request head accepted: far more than any player or relay sends.
    static let maximumHeadSize = 8192

    /// Paths the server answers itself, which no stream's mount may take.
    static func isReserved(_ path: String) -> Bool {
        path == "/status.json" || path == "/admin" || path.hasPrefix("/admin/")
    }

    /// The value of the first field `name` (lowercase).
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the listener asked for ICY metadata blocks in the audio.
    var wantsICYMetadata: Bool { header("icy-metadata") == "1" }

    /// What the bytes received so far make of a request.
    enum Parse: Equatable {
        /// The head is not complete yet.
        case incomplete
        case request(HTTPListenerRequest)
        /// Not a request this server takes: answer `status` and close.
        case refused(HTTPResponseStatus, String)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.query == rhs.query && lhs.isHTTP11 == rhs.isHTTP11
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }

    /// Reads a request head from the start of `bytes`; what follows the head is left alone.
    /// - Parameter searched: how many bytes at the start an earlier call found incomplete, so that a head that
    ///   arrives a byte at a time is searched once, not once per byte.
    static func parse(_ bytes: ByteBufferView, searched: Int = 0) -> Parse {
        guard let end = headEnd(bytes, from: searched) else {
            return bytes.count > maximumHeadSize ? .refused(.badRequest, "request head too large") : .incomplete
        }
        guard end <= maximumHeadSize else { return .refused(.badRequest, "request head too large") }
        let lines = bytes[bytes.startIndex..<bytes.startIndex + end].split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
        ).map { line in String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self) }
        return parse(requestLine: lines[0], fieldLines: lines.dropFirst().filter { !$0.isEmpty })
    }

    private static func parse(requestLine: String, fieldLines: some Collection<String>) -> Parse {
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter) else {
            return .refused(.badRequest, "malformed request line")
        }
        guard parts[2] == "HTTP/1.0" || parts[2] == "HTTP/1.1" else {
            return .refused(.badRequest, "unsupported protocol version")
        }
        guard let method = Method(rawValue: String(parts[0])) else {
            return .refused(.methodNotAllowed, "only GET and HEAD are served")
        }
        let target = parts[1]
        let pathPart = target.prefix { $0 != "?" }
        guard pathPart.hasPrefix("/"), let path = percentDecoded(pathPart) else {
            return .refused(.badRequest, "malformed request target")
        }
        let query = pathPart.endIndex < target.endIndex ? String(target[target.index(after: pathPart.endIndex)...]) : nil
        var headers: [(name: String, value: String)] = []
        for line in fieldLines {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                  line[..<colon].allSatisfy(isTokenCharacter)
            else { return .refused(.badRequest, "malformed header field") }
            headers.append((line[..<colon].lowercased(), String(line[line.index(after: colon)...].trimmingSpaces)))
        }
        let isHTTP11 = parts[2] == "HTTP/1.1"
        // RFC 9112 §3.2: a server answers an HTTP/1.1 request without Host with 400.
        if isHTTP11 && !headers.contains(where: { $0.name == "host" }) {
            return .refused(.badRequest, "HTTP/1.1 request without Host")
        }
        return .request(HTTPListenerRequest(
            method: method, path: path, query: query, isHTTP11: isHTTP11, headers: headers))
    }

    /// The length of the head up to and including its empty line (CRLF or a bare LF), or nil before it came; the
    /// search starts just before `from`, where an empty line may have begun.
    private static func headEnd(_ bytes: ByteBufferView, from: Int) -> Int? {
        var index = bytes.startIndex + max(0, min(from, bytes.count) - 3)
        let limit = min(bytes.endIndex, bytes.startIndex + maximumHeadSize + 4)
        while let newline = bytes[index..<limit].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < limit, bytes[next] == UInt8(ascii: "\n") { return next + 1 - bytes.startIndex }
            if next + 1 < limit, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                return next + 2 - bytes.startIndex
            }
            index = next
        }
        return nil
    }

    /// RFC 9110 §5.6.2 token characters, for methods and field names.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character))
    }

    /// `%XX` escapes decoded; nil for a broken escape or bytes that are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
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
