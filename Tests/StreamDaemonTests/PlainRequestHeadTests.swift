import NIOHTTP1
@testable import StreamDaemon
import Testing

/// What an HLS lane reads of a request head itself, and what it leaves to NIOHTTP1, by RFC 9112's grammar:
/// `request-line = method SP request-target SP HTTP-version CRLF`, fields `field-name ":" OWS field-value OWS CRLF`,
/// the head ended by an empty line.
@Suite struct PlainRequestHeadTests {
    static func read(_ text: String) -> PlainRequestHead {
        Array(text.utf8).withUnsafeBytes { PlainRequestHead($0) }
    }

    @Test func aPlayersGetIsReadWithTheFieldsItsAnswerNeeds() throws {
        let text = "GET /hls/a/live.m3u8?_HLS_msn=3&_HLS_part=1 HTTP/1.1\r\nHost: example.org:8000\r\n"
            + "User-Agent:  AppleCoreMedia/1.0 (iPhone)\t\r\naccept: */*\r\nCONNECTION: close\r\n\r\nGET /next"
        guard case .head(let head, let length) = Self.read(text) else { Issue.record("not read"); return }
        #expect(length == text.utf8.count - "GET /next".utf8.count)
        #expect(head.method == .GET && head.version == .http1_1)
        #expect(head.uri == "/hls/a/live.m3u8?_HLS_msn=3&_HLS_part=1")
        // OWS around a value is not part of it (RFC 9112 §5.1).
        #expect(head.headers.first(name: "user-agent") == "AppleCoreMedia/1.0 (iPhone)")
        #expect(head.headers.first(name: "host") == "example.org:8000")
        #expect(!head.isKeepAlive)
        #expect(head.headers.first(name: "accept") == nil, "fields an HLS answer does not read are left out")
    }

    @Test func headAndHTTP10AreRead() {
        guard case .head(let head, _) = Self.read("HEAD /hls/a/part-1.0.mp3 HTTP/1.0\r\n\r\n") else {
            Issue.record("not read")
            return
        }
        #expect(head.method == .HEAD && head.version == .http1_0 && !head.isKeepAlive)
    }

    @Test(arguments: ["GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\n", "GET /hls/a/live.m3u8 HTTP/1.1\r\n", "GET"])
    func aHeadWithoutItsEmptyLineIsIncomplete(_ text: String) {
        guard case .incomplete = Self.read(text) else {
            Issue.record("\(text) read as whole")
            return
        }
    }

    /// Heads NIOHTTP1 reads instead: other methods and versions, bodies, protocol changes, obsolete line folding
    /// (§5.2), a bare LF (§2.2 lets a recipient take it; this leaves that to NIOHTTP1), whitespace before the colon
    /// (§5.1: rejected or read by NIOHTTP1), control characters and obsolete text in a value, a target with a space.
    @Test(arguments: [
        "POST /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/2.0\r\nHost: a\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\nUser-Agent: a\r\n b\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\nHost: a\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost : a\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\nUser-Agent: é\r\n\r\n",
        "GET /hls/a/live m3u8 HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET  /hls/a/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /hls/a/live.m3u8 HTTP/1.1\r\n: a\r\n\r\n",
    ])
    func anythingElseIsLeftToNIOHTTP1(_ text: String) {
        guard case .unusual = Self.read(text) else {
            Issue.record("\(text.debugDescription) read")
            return
        }
    }

    @Test func aHeadLongerThanTheLimitIsLeftToNIOHTTP1() {
        let long = "GET /hls/a/live.m3u8 HTTP/1.1\r\nUser-Agent: " + String(repeating: "a", count: 9000)
        guard case .unusual = Self.read(long) else {
            Issue.record("read")
            return
        }
        guard case .unusual = Self.read(long + "\r\n\r\n") else {
            Issue.record("read")
            return
        }
    }
}
