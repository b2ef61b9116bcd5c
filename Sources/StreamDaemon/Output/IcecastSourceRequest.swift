import Foundation
import NIOCore

/// The requests of an Icecast source client: the `PUT` that opens the mount, and the admin request that sets its
/// title.
enum IcecastSourceRequest {
    /// `PUT /mount` with the stream's type and station (`ice-*`), asking Icecast to confirm with `100 Continue`
    /// before any audio is sent, as Icecast 2.4's source protocol has it.
    static func put(_ output: IcecastOutputConfig, info: MountInfo) -> ByteBuffer {
        var fields: [(String, String)] = [
            ("Host", hostField(output.url)), ("Authorization", authorization(output)), ("User-Agent", "audiostreamd"),
            ("Content-Type", info.contentType), ("Ice-Public", "0"), ("Ice-Name", info.name),
        ]
        if let genre = info.genre { fields.append(("Ice-Genre", genre)) }
        if let url = info.url { fields.append(("Ice-Url", url)) }
        if let description = info.description { fields.append(("Ice-Description", description)) }
        if let bitRate = info.bitRate { fields.append(("Ice-Bitrate", String(bitRate))) }
        fields.append(("Expect", "100-continue"))
        return request("PUT", output.mount, fields)
    }

    /// `GET /admin/metadata?mode=updinfo` setting the mount's title: the way an MP3 or AAC mount, which carries no
    /// tags of its own, learns it. The title goes as percent-encoded UTF-8 with `charset=UTF-8`: without it Icecast
    /// reads the bytes as ISO-8859-1, and its pages and statistics show `é` as `Ã©`.
    static func titleUpdate(_ output: IcecastOutputConfig, title: String) -> ByteBuffer {
        let query = "mode=updinfo&mount=\(percentEncoded(output.mount))&song=\(percentEncoded(title))&charset=UTF-8"
        return request("GET", "/admin/metadata?\(query)", [
            ("Host", hostField(output.url)), ("Authorization", authorization(output)), ("User-Agent", "audiostreamd"),
        ], version: "HTTP/1.0")
    }

    private static func request(_ method: String, _ target: String, _ fields: [(String, String)],
                                version: String = "HTTP/1.1") -> ByteBuffer {
        var text = "\(method) \(target) \(version)\r\n"
        for (name, value) in fields {
            text += "\(name): \(value.filter { $0 != "\r" && $0 != "\n" })\r\n"
        }
        return ByteBuffer(string: text + "\r\n")
    }

    private static func hostField(_ url: URL) -> String {
        url.port.map { "\(url.host ?? ""):\($0)" } ?? (url.host ?? "")
    }

    private static func authorization(_ output: IcecastOutputConfig) -> String {
        BasicCredentials(user: output.user, password: output.password).authorization
    }

    /// RFC 3986 §2.3's unreserved characters, ASCII only (Foundation's `alphanumerics` has every script's).
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Everything but unreserved characters percent-encoded, byte by byte of the UTF-8.
    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
