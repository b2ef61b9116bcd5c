import NIOCore

/// A file or playlist of a stream's HLS, with what its response says of it.
struct HLSAnswer {
    let body: ByteBuffer
    let contentType: String
    let cacheControl: String

    /// Files never change once made: a CDN and a player may keep them for good.
    static let immutable = "max-age=31536000, immutable"

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
