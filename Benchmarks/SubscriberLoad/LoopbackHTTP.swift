import Foundation

/// Blocking HTTP/1.x requests to a server on the loopback address, with basic authentication: Icecast's source
/// and admin requests.
enum LoopbackHTTP {
    /// Sends the request head and returns the connected socket, before any answer.
    static func send(
        _ method: String, _ path: String, port: Int, user: String, password: String, headers: [String] = []
    ) throws -> Int32 {
        let file = try Socket.connect(loopbackPort: port)
        let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Authorization: Basic \(credentials)"]
            + headers
        do {
            try Socket.writeAll(file, Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
        } catch {
            close(file)
            throw error
        }
        return file
    }

    /// The status code of the response on `file`, read up to the end of its header and no further.
    static func status(of file: Int32) throws -> Int {
        var header: [UInt8] = []
        var byte: UInt8 = 0
        while !header.ends(with: [13, 10, 13, 10]) {
            guard read(file, &byte, 1) == 1 else { throw LoadError("the server closed before the end of its header") }
            header.append(byte)
        }
        return code(in: header)
    }

    /// The first line of `response`.
    static func statusLine(of response: [UInt8]) -> String {
        String(decoding: response.prefix { $0 != 13 }, as: UTF8.self)
    }

    /// The value of header `name` (any case) in `response`'s header, if it has one.
    static func headerValue(_ name: String, in response: [UInt8]) -> String? {
        let lines = String(decoding: response, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
            .components(separatedBy: "\r\n")
        let line = lines.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        return line.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// The status code in the first line of `response`, or 0.
    static func code(in response: [UInt8]) -> Int {
        statusLine(of: response).split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
