import Foundation
import Testing

/// HLS players' connections served through io_uring (`HLSLane`), and by NIO where io_uring is off: the same
/// answers either way, a connection handed to NIO for anything but a plain HLS request, and the connection count
/// and request deadline kept.
@Suite struct HLSLaneTests {
    /// The daemon's environment for each way: io_uring as the machine allows it, or off.
    static let ways: [[String: String]] = [[:], ["AUDIOSTREAMD_IO_URING": "off"]]

    static func daemon(_ environment: [String: String], http: String = "") throws -> (DaemonHarness, UInt16) {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: file:\(HLSOriginTests.fixture("cbr.mp3"))
              loop: true
              socket: live.sock
              hls: {segment: 1, part: 0.25, window: 8}
            """, http: http, environment: environment)
        try HLSOriginTests.waitForASegment(daemon, port, "live")
        // Where io_uring is allowed the log says the lanes serve, so that a test here cannot pass on NIO alone.
        #expect(daemon.log.contains("HLS players served through io_uring") == environment.isEmpty, "\(daemon.log)")
        return (daemon, port)
    }

    /// On one kept-alive connection: a playlist, then requests a lane does not read itself (another path, a
    /// field announcing a body, a HEAD), each answered as RFC 9112 has it, in order, the connection still open.
    @Test(arguments: ways)
    func requestsOnOneConnectionAreAnsweredInOrder(_ environment: [String: String]) throws {
        let (daemon, port) = try Self.daemon(environment)
        let connection = try RawConnection(port: port)
        let requests = [
            "GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\nUser-Agent: test\r\n\r\n",
            "GET /status.json HTTP/1.1\r\nHost: a\r\n\r\n",
        ]
        connection.send(requests[0])
        let first = String(decoding: connection.readToEnd(timeout: 1).bytes, as: UTF8.self)
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n") && first.contains("#EXTM3U"), "\(first)")
        // The status answer closes the connection, as every answer but HLS's does.
        connection.send(requests[1])
        let (second, closed) = connection.readToEnd(timeout: 2)
        let status = String(decoding: second, as: UTF8.self)
        #expect(status.hasPrefix("HTTP/1.1 200 OK\r\n") && status.contains("\"streams\""), "\(status)")
        #expect(closed)

        let other = try RawConnection(port: port)
        // A request with a body field, then a HEAD of the playlist: both 200, the HEAD without a body.
        other.send("GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
                   + "HEAD /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n")
        let (pair, pairClosed) = other.readToEnd(timeout: 2)
        let answers = String(decoding: pair, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK\r\n")
        #expect(answers.count == 3, "\(answers)")
        #expect(answers.last.map { $0.hasSuffix("\r\n\r\n") } == true, "a HEAD answer has no body")
        #expect(!pairClosed)
        withExtendedLifetime(daemon) {}
    }

    /// Connections accepted on every event loop, each with two requests in one write: both requests of each are
    /// answered, in order, whichever loop accepted it and wherever it is served.
    @Test(arguments: ways)
    func pipelinedRequestsOfManyConnectionsAreAnsweredInOrder(_ environment: [String: String]) throws {
        let (daemon, port) = try Self.daemon(environment)
        // Connections go to the loops in turn: four reach at least two loops wherever there are two.
        let connections = try (0..<4).map { _ in try RawConnection(port: port) }
        for connection in connections {
            connection.send("GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n"
                            + "HEAD /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n")
        }
        for connection in connections {
            let (bytes, closed) = connection.readToEnd(timeout: 2)
            let answers = String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK\r\n")
            #expect(answers.count == 3 && answers[1].contains("#EXTM3U"), "\(answers)")
            #expect(answers.last.map { $0.hasSuffix("\r\n\r\n") } == true, "a HEAD answer has no body")
            #expect(!closed)
        }
        withExtendedLifetime(daemon) {}
    }

    /// A request head without a Host is refused as RFC 9112 §3.2 says, with 400, however it came.
    @Test(arguments: ways)
    func anHTTP11RequestWithoutHostIs400(_ environment: [String: String]) throws {
        let (daemon, port) = try Self.daemon(environment)
        let answer = try RawConnection.exchange(port: port, "GET /hls/live/live.m3u8 HTTP/1.1\r\n\r\n")
        #expect(answer.text.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first == "400",
                "\(answer.text)")
        #expect(answer.closed)
        withExtendedLifetime(daemon) {}
    }

    /// Every closed connection leaves the count `maxListeners` bounds: forty in turn under a bound of three are
    /// all answered, and four at once are not.
    @Test(arguments: ways)
    func closedConnectionsLeaveTheCount(_ environment: [String: String]) throws {
        let (daemon, port) = try Self.daemon(environment, http: "maxListeners: 3")
        for _ in 0..<40 {
            let answer = try RawConnection.exchange(port: port, "GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n"
                                                    + "Connection: close\r\n\r\n")
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.text.prefix(200))")
        }
        // A connection leaves the count once the daemon has closed it, a moment after its client saw the end: a
        // connection refused is tried again, one answered kept open, until the last of the forty has left.
        var open: [RawConnection] = []
        try daemon.waitUntil("three connections at once") {
            let connection = try RawConnection(port: port)
            connection.send("GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n")
            let answer = connection.readToEnd(timeout: 1)
            if String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"), !answer.closed {
                open.append(connection)
            }
            return open.count == 3
        }
        let fourth = try RawConnection.exchange(port: port, "GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(fourth.text.contains(" 503 "), "\(fourth.text)")
        withExtendedLifetime(open) {}
        withExtendedLifetime(daemon) {}
    }

    /// A player that starts a request and stops is closed once `headerTimeout` has passed, after an answer too.
    @Test(arguments: ways)
    func aStalledRequestIsClosed(_ environment: [String: String]) throws {
        let (daemon, port) = try Self.daemon(environment, http: "headerTimeout: 1")
        let stalled = try RawConnection(port: port)
        stalled.send("GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n")
        #expect(stalled.readToEnd(timeout: 5).closed)
        let idle = try RawConnection(port: port)
        idle.send("GET /hls/live/live.m3u8 HTTP/1.1\r\nHost: a\r\n\r\n")
        let (bytes, closed) = idle.readToEnd(timeout: 5)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(closed)
        withExtendedLifetime(daemon) {}
    }
}
