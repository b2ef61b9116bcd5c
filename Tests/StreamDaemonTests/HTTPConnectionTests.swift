import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import StreamDaemon
import Testing

/// Requests as the HTTP server reads them (NIOHTTP1, then `HTTPRequest` and `HTTPRoute`), by RFC 9112: what is
/// served, what is refused and why. A connection on an `EmbeddedChannel`, with no stream at any mount.
@Suite struct HTTPConnectionTests {
    /// A new connection, its pipeline as the server makes it.
    static func connection() throws -> EmbeddedChannel {
        let server = HTTPServer(config: HTTPServerConfig(host: "127.0.0.1", port: 8000)) {
            EmbeddedEventLoop().makeSucceededFuture(.object([]))
        }
        let channel = EmbeddedChannel()
        try HTTPConnection.configure(channel.pipeline.syncOperations, server: server,
                                     socket: SubscriberSocket(descriptor: nil), logger: Logger(label: "test"))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// The answer's status line to `bytes` sent in `pieces`, or nil if none came.
    static func answer(_ bytes: [UInt8], pieces: Int = 1) throws -> String? {
        let channel = try connection()
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
        }
        guard let answer = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
        return String(decoding: answer.readableBytesView.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    static func answer(_ text: String) throws -> String? {
        try answer(Array(text.utf8))
    }

    @Test func aRelaysRequestIsReadWithItsFields() throws {
        let head = HTTPRequestHead(version: .http1_0, method: .GET, uri: "/radio%20one.mp3?x=1",
                                   headers: ["Icy-MetaData": "1", "User-Agent": "Icecast 2.4.4"])
        let request = try HTTPRequest(head)
        #expect(request.path == "/radio one.mp3")
        #expect(request.query == "x=1")
        #expect(!request.isHTTP11)
        #expect(!request.isHead)
        #expect(request.wantsICYMetadata)
    }

    @Test func aRequestOfAPathWithNothingAtItIsAnsweredInItsVersion() throws {
        #expect(try Self.answer("GET /radio HTTP/1.0\r\n\r\n") == "HTTP/1.0 404 Not Found")
        #expect(try Self.answer("HEAD /radio HTTP/1.1\r\nHost: a\r\n\r\n") == "HTTP/1.1 404 Not Found")
    }

    @Test func aHeadArrivingAByteAtATimeIsAnsweredOnceWhole() throws {
        let text = Array("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n".utf8)
        let channel = try Self.connection()
        for byte in text.dropLast() {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        }
        try channel.writeInbound(ByteBuffer(bytes: [text.last!]))
        #expect(try channel.readOutbound(as: ByteBuffer.self) != nil)
    }

    @Test func aHeadIsNotAnsweredUntilItsEmptyLine() throws {
        #expect(try Self.answer("GET /radio HTTP/1.1\r\nHost: a\r\n") == nil)
        #expect(try Self.answer("") == nil)
        // RFC 9112 §2.2: empty lines before a request line are ignored.
        #expect(try Self.answer("\r\n\r\n") == nil)
    }

    /// RFC 9112 §3: a recipient may take any whitespace between the request line's words.
    @Test func moreSpacesBetweenTheRequestLinesWordsAreTaken() throws {
        #expect(try Self.answer("GET  /radio HTTP/1.0\r\n\r\n") == "HTTP/1.0 404 Not Found")
    }

    @Test(arguments: [
        ("POST /radio HTTP/1.1\r\nHost: a\r\n\r\n", "405 Method Not Allowed"),
        ("DELETE /radio HTTP/1.0\r\n\r\n", "405 Method Not Allowed"),
        ("GET /radio HTTP/1.1\r\n\r\n", "400 Bad Request"),  // RFC 9112 §3.2: Host is required
        ("GET /radio HTTP/2.0\r\n\r\n", "400 Bad Request"),
        ("GET radio HTTP/1.0\r\n\r\n", "400 Bad Request"),
        ("GET /radio%zz HTTP/1.0\r\n\r\n", "400 Bad Request"),
        ("GET /radio HTTP/1.0\r\nBad Name: x\r\n\r\n", "400 Bad Request"),
        ("GET /radio HTTP/1.0\r\n: empty name\r\n\r\n", "400 Bad Request"),
        ("GARBAGE\r\n\r\n", "400 Bad Request"),
    ])
    func requestsOtherThanGetOrHeadOfAPathAreRefusedInHTTP10(_ text: String, _ status: String) throws {
        #expect(try Self.answer(text) == "HTTP/1.0 \(status)", "\(text.debugDescription)")
    }

    @Test func aHeadLargerThanTheLimitIsRefusedBeforeItEnds() throws {
        let endless = "GET /radio HTTP/1.0\r\nX: " + String(repeating: "a", count: HTTPRequest.maximumHeadSize)
        #expect(try Self.answer(Array(endless.utf8), pieces: 8) == "HTTP/1.0 400 Bad Request")
        let longTarget = "GET /" + String(repeating: "a", count: HTTPRequest.maximumHeadSize)
        #expect(try Self.answer(Array(longTarget.utf8), pieces: 8) == "HTTP/1.0 400 Bad Request")
    }

    @Test func theServersOwnPathsAreReserved() {
        #expect(HTTPRoute.isReserved("/status.json"))
        #expect(HTTPRoute.isReserved("/admin/streamlist.txt"))
        #expect(!HTTPRoute.isReserved("/administration"))
    }
}
