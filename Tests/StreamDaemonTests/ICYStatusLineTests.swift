import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import StreamDaemon
import Testing

/// SHOUTcast's `ICY 200 OK` reaches NIO's HTTP decoder as the HTTP/1.0 answer it is, in any chunking; other
/// answers pass untouched.
@Suite struct ICYStatusLineTests {
    static let answer = "ICY 200 OK\r\nicy-metaint: 8\r\ncontent-type: audio/mpeg\r\n\r\n0123456789"

    @Test(arguments: [1, 2, 3, 5, 100])
    func anICYAnswerIsReadAsHTTP10(chunkSize: Int) throws {
        let parts = try Self.decode(Self.answer, chunkSize: chunkSize)
        guard case .head(let head) = parts.first else { Issue.record("no head: \(parts)"); return }
        #expect(head.status == .ok)
        #expect(head.version == .http1_0)
        #expect(head.headers.first(name: "icy-metaint") == "8")
        let body = parts.compactMap { part -> String? in
            if case .body(let bytes) = part { return String(buffer: bytes) }
            return nil
        }.joined()
        #expect(body == "0123456789")
    }

    @Test func anHTTPAnswerIsUntouched() throws {
        let parts = try Self.decode("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n", chunkSize: 3)
        guard case .head(let head) = parts.first else { Issue.record("no head: \(parts)"); return }
        #expect(head.status == .notFound)
        #expect(head.version == .http1_1)
    }

    /// Feeds `text` to a client pipeline in chunks and returns the response parts decoded.
    static func decode(_ text: String, chunkSize: Int) throws -> [HTTPClientResponsePart] {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ICYStatusLine())
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.writeOutbound(HTTPClientRequestPart.head(.init(version: .http1_1, method: .GET, uri: "/")))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + chunkSize, bytes.count)]))
        }
        _ = try? channel.finish()
        var parts: [HTTPClientResponsePart] = []
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) { parts.append(part) }
        return parts
    }
}
