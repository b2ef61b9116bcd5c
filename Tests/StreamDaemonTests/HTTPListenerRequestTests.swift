import NIOCore
import NIOHTTP1
@testable import StreamDaemon
import Testing

/// Request heads as `HTTPListenerRequest` reads them, by RFC 9112: what is served, what is refused and why.
@Suite struct HTTPListenerRequestTests {
    static func parse(_ text: String) -> HTTPListenerRequest.Parse {
        HTTPListenerRequest.parse(ByteBuffer(string: text).readableBytesView)
    }

    @Test func aRelaysRequestIsReadWithItsFields() throws {
        let parsed = Self.parse("GET /radio%20one.mp3?x=1 HTTP/1.0\r\nIcy-MetaData: 1\r\nUser-Agent:  Icecast 2.4.4 \r\n\r\n")
        guard case .request(let request) = parsed else { throw Failure(parsed) }
        #expect(request.method == .get)
        #expect(request.path == "/radio one.mp3")
        #expect(request.query == "x=1")
        #expect(!request.isHTTP11)
        #expect(request.wantsICYMetadata)
        #expect(request.header("user-agent") == "Icecast 2.4.4")
    }

    @Test func bareLineFeedsEndAHeadToo() throws {
        guard case .request(let request) = Self.parse("HEAD / HTTP/1.1\nHost: a\n\n") else { throw Failure(nil) }
        #expect(request.method == .head)
        #expect(request.isHTTP11)
        #expect(!request.wantsICYMetadata)
    }

    @Test func aHeadArrivingAByteAtATimeIsFoundWhereverItsEmptyLineIsCut() throws {
        let text = Array("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n".utf8)
        var searched = 0
        for end in 1...text.count {
            let parsed = HTTPListenerRequest.parse(ByteBuffer(bytes: text[..<end]).readableBytesView, searched: searched)
            if end < text.count {
                #expect(parsed == .incomplete)
                searched = end
            } else {
                guard case .request(let request) = parsed else { throw Failure(parsed) }
                #expect(request.wantsICYMetadata)
            }
        }
    }

    @Test func aHeadIsIncompleteUntilItsEmptyLine() {
        #expect(Self.parse("GET /radio HTTP/1.1\r\nHost: a\r\n") == .incomplete)
        #expect(Self.parse("") == .incomplete)
    }

    @Test(arguments: [
        ("POST /radio HTTP/1.1\r\nHost: a\r\n\r\n", HTTPResponseStatus.methodNotAllowed),
        ("PUT /radio HTTP/1.0\r\n\r\n", .methodNotAllowed),
        ("GET /radio HTTP/1.1\r\n\r\n", .badRequest),  // RFC 9112 §3.2: Host is required
        ("GET /radio HTTP/2.0\r\n\r\n", .badRequest),
        ("GET radio HTTP/1.0\r\n\r\n", .badRequest),
        ("GET /radio%zz HTTP/1.0\r\n\r\n", .badRequest),
        ("GET  /radio HTTP/1.0\r\n\r\n", .badRequest),
        ("GET /radio HTTP/1.0\r\nBad Name: x\r\n\r\n", .badRequest),
        ("GET /radio HTTP/1.0\r\n: empty name\r\n\r\n", .badRequest),
        ("\r\n\r\n", .badRequest),
    ])
    func requestsOtherThanGetOrHeadOfAPathAreRefused(_ text: String, _ status: HTTPResponseStatus) {
        guard case .refused(let refused, _) = Self.parse(text) else {
            Issue.record("\(text.debugDescription) was not refused")
            return
        }
        #expect(refused == status)
    }

    @Test func aHeadLargerThanTheLimitIsRefusedBeforeItEnds() {
        let endless = "GET /radio HTTP/1.0\r\nX: " + String(repeating: "a", count: HTTPListenerRequest.maximumHeadSize)
        guard case .refused(.badRequest, _) = Self.parse(endless) else {
            Issue.record("an endless head was not refused")
            return
        }
    }

    @Test func theServersOwnPathsAreReserved() {
        #expect(HTTPListenerRequest.isReserved("/status.json"))
        #expect(HTTPListenerRequest.isReserved("/admin/streamlist.txt"))
        #expect(!HTTPListenerRequest.isReserved("/administration"))
    }

    struct Failure: Error {
        let parse: HTTPListenerRequest.Parse?
        init(_ parse: HTTPListenerRequest.Parse?) { self.parse = parse }
    }
}
