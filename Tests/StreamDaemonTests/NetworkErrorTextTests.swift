import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
@testable import StreamDaemon
import Testing

/// Network failures read as one plain line, from the real errors NIO and NIOSSL give.
@Suite struct NetworkErrorTextTests {
    /// What connecting to `host` at `port` fails with, as the source tells it.
    static func connectionFailure(host: String, port: Int) throws -> String {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        do {
            let channel = try ClientBootstrap(group: group).connect(host: host, port: port).wait()
            try channel.close().wait()
            return "connected"
        } catch {
            return NetworkErrorText.describe(error)
        }
    }

    @Test func aClosedPortIsRefused() throws {
        #expect(try Self.connectionFailure(host: "127.0.0.1", port: Int(FreePort.pick())) == "connection refused")
    }

    /// `.invalid` never resolves (RFC 6761 §6.4).
    @Test func anUnknownNameIsNotFound() throws {
        #expect(try Self.connectionFailure(host: "station.invalid", port: 80) == "name not found")
    }

    @Test func timeoutsSayTimedOut() {
        #expect(NetworkErrorText.describe(ChannelError.connectTimeout(.seconds(10))) == "timed out")
        #expect(NetworkErrorText.describe(IOError(errnoCode: ETIMEDOUT, reason: "read")) == "timed out")
    }

    /// A station killed mid-body: NIOHTTP1 reads the end of its chunked answer within a chunk.
    @Test func anAnswerCutWithinAChunkSaysSo() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
        try channel.writeOutbound(HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\nabc"))
        var failure: String?
        do {
            _ = try channel.finish()
        } catch {
            failure = NetworkErrorText.describe(error)
        }
        #expect(failure == "the connection closed within the response")
    }

    /// A station behind a self-signed certificate (made here by openssl, served by `openssl s_server`).
    @Test func aSelfSignedCertificateIsNotTrusted() throws {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("key.pem").path
        let certificate = folder.appendingPathComponent("cert.pem").path
        let made = try ToolProcess.run("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
            "-subj", "/CN=127.0.0.1",
        ], folder: folder, name: "req")
        try #require(made.status == 0, "\(made.errors)")
        let port = try FreePort.pick()
        let server = try ToolProcess("openssl", [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet",
        ], folder: folder, name: "s_server")
        defer { server.stop() }

        var failure = ""
        let deadline = Date().addingTimeInterval(10)
        repeat {
            do {
                try HTTPInput.read(URL(string: "https://127.0.0.1:\(port)/")!) { _ in }
                failure = "read"
            } catch {
                failure = "\(error)"
            }
            // s_server may not listen yet.
            if failure == "connection refused" { usleep(50_000) }
        } while failure == "connection refused" && Date() < deadline
        #expect(failure == "certificate not trusted: self-signed")
    }
}
