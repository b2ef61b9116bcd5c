import CSendRing
import Glibc
import Logging
import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// HTTP listeners' sends through io_uring: each send returns what `send(2)` would, and a socket's queued bytes
/// go out at the hub's submit, before anything written after them, with what the socket does not take left to NIO.
@Suite struct SendRingTests {
    @Test func everySendReturnsWhatSendWould() throws {
        // Four sends per system call, for ten sends: the ring is filled and emptied three times.
        let ring = try #require(send_ring_create(4))
        defer { send_ring_destroy(ring) }
        let pairs = (0..<9).map { _ in Self.socketPair() }
        defer { for pair in pairs { close(pair.0); close(pair.1) } }
        let messages = (0..<10).map { Array("message \($0)".utf8) }
        var descriptors = pairs.map(\.0)
        // A descriptor that is not open: its send fails as send(2)'s would, and the others still go.
        descriptors.append(-1)
        var results = [Int32](repeating: 0, count: messages.count)
        let failed = messages.withPointers { pointers in
            send_ring_send(ring, UInt32(messages.count), descriptors, pointers, messages.map { UInt32($0.count) },
                           &results)
        }
        #expect(failed == 0)
        #expect(results.prefix(9).elementsEqual(messages.prefix(9).map { Int32($0.count) }))
        #expect(results[9] == -EBADF)
        for (index, pair) in pairs.enumerated() {
            #expect(Self.received(on: pair.1) == String(decoding: messages[index], as: UTF8.self))
        }
    }

    @Test func aSocketThatTakesPartLeavesTheRestToNIOInOrder() throws {
        let (sender, receiver) = Self.socketPair()
        defer { close(sender); close(receiver) }
        let (socket, channel, ring) = try Self.ringSocket(sending: sender)

        socket.writeNow(ByteBuffer(string: "audio"))
        // Written after it, but ahead of it were it not held: it joins the queued bytes.
        socket.write(ByteBuffer(string: " and more"))
        #expect(Self.received(on: receiver) == "", "a queued send waits for the submit")
        ring.submit()
        #expect(Self.received(on: receiver) == "audio and more")
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)

        // More than the socket's buffer holds: what it does not take goes to NIO, and nothing is lost.
        let large = ByteBuffer(bytes: (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        socket.writeNow(large)
        ring.submit()
        var delivered = ByteBuffer(bytes: Self.receivedBytes(on: receiver))
        #expect(delivered.readableBytes > 0 && delivered.readableBytes < large.readableBytes)
        var rest = try #require(try channel.readOutbound(as: ByteBuffer.self))
        delivered.writeBuffer(&rest)
        #expect(delivered == large)
    }

    @Test func aSendQueuedByASocketThatClosesIsNeverMade() throws {
        let (sender, receiver) = Self.socketPair()
        defer { close(sender); close(receiver) }
        let (socket, channel, ring) = try Self.ringSocket(sending: sender)
        socket.writeNow(ByteBuffer(string: "late"))
        try channel.close().wait()
        ring.submit()
        #expect(Self.received(on: receiver) == "")
    }

    @Test func whereIoUringIsRefusedTheSocketSendsItself() throws {
        let (sender, receiver) = Self.socketPair()
        defer { close(sender); close(receiver) }
        // A ring of no entries is refused, as io_uring is by a seccomp filter or `kernel.io_uring_disabled`.
        let (socket, channel, _) = try Self.ringSocket(sending: sender, entries: 0)
        socket.writeNow(ByteBuffer(string: "audio"))
        #expect(Self.received(on: receiver) == "audio")
        socket.writeNow(ByteBuffer(string: " and more"))
        #expect(Self.received(on: receiver) == " and more")
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
    }

    /// A subscriber socket for `descriptor` at the head of an embedded channel, sending through a ring.
    static func ringSocket(sending descriptor: CInt, entries: UInt32 = 256) throws
        -> (SubscriberSocket, EmbeddedChannel, SendRing) {
        let socket = SubscriberSocket(descriptor: descriptor)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(socket)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let ring = SendRing(eventLoop: channel.eventLoop, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), entries: entries)
        socket.sendThrough(ring)
        return (socket, channel, ring)
    }

    static func socketPair() -> (CInt, CInt) {
        var ends: [CInt] = [0, 0]
        _ = socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &ends)
        return (ends[0], ends[1])
    }

    /// What is waiting on `descriptor`, without waiting.
    static func receivedBytes(on descriptor: CInt) -> [UInt8] {
        var received: [UInt8] = []
        var bytes = [UInt8](repeating: 0, count: 65536)
        while case let count = recv(descriptor, &bytes, bytes.count, CInt(MSG_DONTWAIT)), count > 0 {
            received += bytes.prefix(count)
        }
        return received
    }

    static func received(on descriptor: CInt) -> String {
        String(decoding: receivedBytes(on: descriptor), as: UTF8.self)
    }
}

extension Array where Element == [UInt8] {
    /// Calls `body` with a pointer to each array's bytes, valid during the call.
    func withPointers<T>(_ body: ([UnsafeRawPointer?]) -> T) -> T {
        func nest(_ index: Int, _ pointers: [UnsafeRawPointer?]) -> T {
            guard index < count else { return body(pointers) }
            return self[index].withUnsafeBytes { nest(index + 1, pointers + [$0.baseAddress]) }
        }
        return nest(0, [])
    }
}
