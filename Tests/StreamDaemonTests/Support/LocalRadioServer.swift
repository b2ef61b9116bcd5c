import Foundation
import NIOConcurrencyHelpers

/// A small HTTP server on 127.0.0.1 that answers each connection with the next planned reply (the last one
/// repeats), as a radio station or a misbehaving one would.
final class LocalRadioServer: @unchecked Sendable {
    /// One answer: a status line, headers and a body, sent whole or cut short.
    struct Reply: Sendable {
        var statusLine: String
        var headers: [(String, String)]
        var body: [UInt8]
        /// Send the body in HTTP/1.1 chunks of these sizes, in turn.
        var chunkSizes: [Int]? = nil
        /// Close the connection after this many bytes of the body.
        var cutAfter: Int? = nil
        /// Send this many bytes of the body, then nothing more while the server runs.
        var stallAfter: Int? = nil

        /// A SHOUTcast answer: `ICY 200 OK` and a body with ICY blocks every `metaint` bytes.
        static func icy(_ body: [UInt8], metaint: Int, name: String = "Local Radio") -> Reply {
            Reply(statusLine: "ICY 200 OK", headers: [
                ("icy-name", name), ("icy-genre", "Test"), ("icy-br", "128"), ("icy-url", "http://radio.example/"),
                ("content-type", "audio/mpeg"), ("icy-metaint", String(metaint)),
            ], body: body)
        }

        static func status(_ line: String) -> Reply {
            Reply(statusLine: "HTTP/1.1 \(line)", headers: [("content-length", "0")], body: [])
        }

        static func redirect(to location: String) -> Reply {
            Reply(statusLine: "HTTP/1.1 302 Found", headers: [("location", location), ("content-length", "0")], body: [])
        }
    }

    let port: Int
    private let listener: Int32
    private let replies: [Reply]
    private let state = NIOLockedValueBox((requests: [String](), stopped: false))
    /// Holds the first reply until `open()`, so subscribers can join before any audio flows.
    private let gate: DispatchSemaphore?

    init(replies: [Reply], held: Bool = false) throws {
        self.replies = replies
        gate = held ? DispatchSemaphore(value: 0) : nil
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw ServerError.cannotListen(errno)
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit {
        stop()
    }

    var url: String { "http://127.0.0.1:\(port)/live" }

    /// Lets a held server answer.
    func open() {
        gate?.signal()
    }

    /// The requests received so far, each as its text up to the blank line.
    var requests: [String] { state.withLockedValue { $0.requests } }

    func stop() {
        let wasStopped = state.withLockedValue { state in
            defer { state.stopped = true }
            return state.stopped
        }
        // Only the serving thread closes the listener: closed here, its number could be reused by another test's
        // socket before that thread's next accept, which would then answer that test's connections.
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
            gate?.signal()
        }
    }

    private func serve() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let index = state.withLockedValue { state in
                state.requests.append(Self.readRequest(connection))
                return state.requests.count - 1
            }
            if index == 0 { gate?.wait() }
            send(replies[min(index, replies.count - 1)], to: connection)
            close(connection)
        }
    }

    private static func readRequest(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while read(connection, &byte, 1) == 1 {
            received.append(byte)
            if received.suffix(4) == Array("\r\n\r\n".utf8) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func send(_ reply: Reply, to connection: Int32) {
        var head = reply.statusLine + "\r\n"
        for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
        if reply.chunkSizes != nil { head += "transfer-encoding: chunked\r\n" }
        write(Array((head + "\r\n").utf8), to: connection)
        if let stallAfter = reply.stallAfter {
            write(Array(reply.body.prefix(stallAfter)), to: connection)
            while !state.withLockedValue({ $0.stopped }) { usleep(50_000) }
            return
        }
        let body = reply.cutAfter.map { Array(reply.body.prefix($0)) } ?? reply.body
        guard let sizes = reply.chunkSizes else { return write(body, to: connection) }
        var start = 0
        var turn = 0
        while start < body.count {
            let end = min(start + sizes[turn % sizes.count], body.count)
            write(Array(String(end - start, radix: 16).utf8) + [13, 10] + body[start..<end] + [13, 10], to: connection)
            start = end
            turn += 1
        }
        if reply.cutAfter == nil { write(Array("0\r\n\r\n".utf8), to: connection) }
    }

    private func write(_ bytes: [UInt8], to connection: Int32) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    enum ServerError: Error {
        case cannotListen(Int32)
    }
}
