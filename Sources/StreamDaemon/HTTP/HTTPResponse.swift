import NIOCore
import NIOHTTP1

/// Response heads and short answers, written as bytes: a listener's connection has no HTTP encoder in its
/// pipeline, so audio goes straight to the socket after the head.
enum HTTPResponse {
    /// A response head: the status line in the request's version (Icecast's relay reads `HTTP/1.0`), `fields`,
    /// and `Connection: close`, as every answer ends its connection but HLS answers `keepAlive`.
    static func head(_ status: HTTPResponseStatus, http11: Bool, fields: [(String, String)],
                     keepAlive: Bool = false) -> ByteBuffer {
        var text = "HTTP/1.\(http11 ? 1 : 0) \(status.code) \(status.reasonPhrase)\r\n"
        for (name, value) in fields + [("Server", "audiostreamd"), ("Connection", keepAlive ? "keep-alive" : "close")] {
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        return ByteBuffer(string: text)
    }

    /// A complete answer with a body of `contentType`; for a HEAD request (`headOnly`), its head alone.
    static func complete(_ status: HTTPResponseStatus, http11: Bool, contentType: String, body: String,
                         headOnly: Bool = false, fields: [(String, String)] = []) -> ByteBuffer {
        var buffer = head(status, http11: http11, fields: [
            ("Content-Type", contentType), ("Content-Length", String(body.utf8.count)),
            ("Cache-Control", "no-cache"), ("Access-Control-Allow-Origin", "*"),
        ] + fields)
        if !headOnly { buffer.writeString(body) }
        return buffer
    }

    /// A 200 answer of `body` bytes; for a HEAD request (`headOnly`), its head alone. Web players on other
    /// origins may read it.
    static func body(_ body: ByteBuffer, http11: Bool, contentType: String, cacheControl: String,
                     headOnly: Bool, keepAlive: Bool) -> ByteBuffer {
        var buffer = head(.ok, http11: http11, fields: [
            ("Content-Type", contentType), ("Content-Length", String(body.readableBytes)),
            ("Cache-Control", cacheControl), ("Access-Control-Allow-Origin", "*"),
        ], keepAlive: keepAlive)
        if !headOnly { buffer.writeImmutableBuffer(body) }
        return buffer
    }

    /// A refusal: the status, and why as plain text.
    /// A `302 Found` to `location`, for a client to ask there instead.
    static func redirect(to location: String, http11: Bool) -> ByteBuffer {
        complete(.found, http11: http11, contentType: "text/plain; charset=utf-8", body: "see \(location)\n",
                 fields: [("Location", location)])
    }

    static func refusal(_ status: HTTPResponseStatus, http11: Bool, reason: String,
                        fields: [(String, String)] = []) -> ByteBuffer {
        complete(status, http11: http11, contentType: "text/plain; charset=utf-8", body: reason + "\n", fields: fields)
    }

    /// The head of a mount's audio: no length and no chunked encoding, as the stream ends only with the
    /// connection; icy-* fields for players and relays.
    static func audioHead(_ info: MountInfo, http11: Bool, metaint: Int?) -> ByteBuffer {
        var fields: [(String, String)] = [("Content-Type", info.contentType), ("icy-name", info.name)]
        if let genre = info.genre { fields.append(("icy-genre", genre)) }
        if let url = info.url { fields.append(("icy-url", url)) }
        if let description = info.description { fields.append(("icy-description", description)) }
        if let bitRate = info.bitRate { fields.append(("icy-br", String(bitRate))) }
        if let metaint { fields.append(("icy-metaint", String(metaint))) }
        fields += [
            ("icy-pub", "0"), ("Cache-Control", "no-cache, no-store"), ("Access-Control-Allow-Origin", "*"),
            // Browsers show a script only the headers CORS exposes.
            ("Access-Control-Expose-Headers", "icy-name, icy-genre, icy-url, icy-description, icy-br, icy-metaint"),
        ]
        return head(.ok, http11: http11, fields: fields.map { ($0, sanitized($1)) })
    }

    /// A field value without line breaks, and short: station names come from other servers, and must neither
    /// split the head nor push it past the 4 KiB an Icecast relay reads.
    private static func sanitized(_ value: String) -> String {
        String(value.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) }.prefix(256))
    }
}
