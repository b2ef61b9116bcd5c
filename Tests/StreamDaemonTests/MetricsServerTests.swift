import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import Prometheus
import Testing
@testable import StreamDaemon

/// A metrics connection without sockets: answers by HTTP's rules on keeping the connection, and the request
/// deadline.
@Suite struct MetricsServerTests {
    /// A connection to a server with one counter, `things_total` at 3.
    static func connection() throws -> EmbeddedChannel {
        let registry = PrometheusCollectorRegistry()
        registry.makeCounter(descriptor: MetricNameDescriptor(metricName: "things", unitName: "total", helpText: "Things."))
            .increment(by: Int64(3))
        let channel = EmbeddedChannel()
        let loop = channel.eventLoop
        try MetricsServer.configure(channel.pipeline.syncOperations, registry: registry) { loop.makeSucceededVoidFuture() }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9464)).wait()
        return channel
    }

    /// Everything written to the client so far, as text.
    static func answer(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    @Test func anHTTP10RequestIsAnsweredThenClosed() throws {
        let channel = try Self.connection()
        try channel.writeInbound(ByteBuffer(string: "GET /metrics HTTP/1.0\r\n\r\n"))
        let answer = try Self.answer(channel)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.lowercased().contains("connection: close\r\n"))
        #expect(answer.hasSuffix("things_total 3\n"))
        #expect(!channel.isActive)
    }

    @Test func anHTTP11ConnectionServesRequestAfterRequest() throws {
        let channel = try Self.connection()
        for _ in 0..<2 {
            try channel.writeInbound(ByteBuffer(string: "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"))
            let answer = try Self.answer(channel)
            #expect(answer.hasSuffix("things_total 3\n"))
            #expect(!answer.lowercased().contains("connection: close"))
            #expect(channel.isActive)
        }
    }

    /// A reader that sends its request a byte every 5 s is closed once the deadline passes (virtual time), on its
    /// first request or on a later one of the same connection.
    @Test(arguments: [false, true])
    func aTricklingRequestIsClosedAtTheDeadline(afterARequest: Bool) throws {
        let channel = try Self.connection()
        if afterARequest {
            channel.embeddedEventLoop.advanceTime(by: .seconds(9))
            try channel.writeInbound(ByteBuffer(string: "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"))
            #expect(try Self.answer(channel).hasSuffix("things_total 3\n"))
        }
        var sent = 0
        for byte in "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa".utf8 where channel.isActive {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            sent += 1
            channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        }
        #expect(!channel.isActive)
        #expect(sent == 2)
    }

    @Test func aSilentConnectionIsClosed() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let folder = try DaemonHarness.makeFolder()
        let path = folder.appendingPathComponent("metrics.sock").path
        let loop = group.next()
        let listener = try MetricsServer.start(
            at: .unix(path: path), on: loop, inherited: InheritedSockets(environment: [:]),
            registry: PrometheusCollectorRegistry(), requestTimeout: .milliseconds(200)
        ) { loop.makeSucceededVoidFuture() }.wait()
        defer { _ = try? listener.close().wait() }
        // A client that is not ours connects, says nothing, and waits up to 10 s for the server to hang up.
        let python = Process()
        let output = Pipe()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1])
            print("closed" if s.recv(1) == b"" else "data")
            """, path]
        python.standardOutput = output
        try python.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(said == "closed\n")
    }
}
