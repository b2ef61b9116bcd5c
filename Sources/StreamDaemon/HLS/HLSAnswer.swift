import NIOCore

/// A file or playlist of a stream's HLS, with what its response says of it, and the response players ask for
/// most (HTTP/1.1, kept alive, GET) made once: a thousand players ask for the same bytes at the same moment. A
/// class, so that handing it to each of them counts one reference, not one per field.
final class HLSAnswer: Sendable {
    let body: ByteBuffer
    let contentType: String
    let cacheControl: String
    private let keptAliveResponse: ByteBuffer

    /// Files never change once made: a CDN and a player may keep them for good.
    static let immutable = "max-age=31536000, immutable"

    init(body: ByteBuffer, contentType: String, cacheControl: String) {
        self.body = body
        self.contentType = contentType
        self.cacheControl = cacheControl
        keptAliveResponse = HTTPResponse.body(body, http11: true, contentType: contentType, cacheControl: cacheControl,
                                              headOnly: false, keepAlive: true)
    }

    /// The whole response, head and body (none for a HEAD request).
    func response(http11: Bool, headOnly: Bool, keepAlive: Bool) -> ByteBuffer {
        guard !http11 || headOnly || !keepAlive else { return keptAliveResponse }
        return HTTPResponse.body(body, http11: http11, contentType: contentType, cacheControl: cacheControl,
                                 headOnly: headOnly, keepAlive: keepAlive)
    }

    /// The media type of a file by its extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "m3u8": "application/vnd.apple.mpegurl"
        case "aac": "audio/aac"
        case "mp3": "audio/mpeg"
        case "ac3": "audio/ac3"
        case "eac3": "audio/eac3"
        case "m4s", "mp4": "audio/mp4"
        default: "application/octet-stream"
        }
    }
}
