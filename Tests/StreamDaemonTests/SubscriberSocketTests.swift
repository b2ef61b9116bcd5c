import Glibc
import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// `SubscriberSocket`'s contract, on an `EmbeddedChannel` whose socket is one end of a Unix socket pair: a direct
/// send never overtakes a write NIO holds, whichever handler made it.
@Suite struct SubscriberSocketTests {
    /// Writes without flushing, as a protocol's handler behind the socket may.
    final class Writer: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        var context: ChannelHandlerContext?
        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    }

    @Test func aDirectSendWaitsForTheWritesNIOHolds() throws {
        var ends: [CInt] = [0, 0]
        #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { for end in ends { close(end) } }
        let socket = SubscriberSocket(descriptor: ends[0])
        let writer = Writer()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([socket, writer])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()

        writer.context!.write(NIOAny(ByteBuffer(string: "head")), promise: nil)
        socket.writeNow(ByteBuffer(string: "audio"))
        // Both went to NIO, in order: none of it reached the socket directly.
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "head"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "audio"))
        #expect(Self.received(on: ends[1]) == "")

        // NIO holds nothing now: the next bytes go straight to the socket.
        socket.writeNow(ByteBuffer(string: "more"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        #expect(Self.received(on: ends[1]) == "more")
    }

    /// What is waiting on `descriptor`, without waiting.
    static func received(on descriptor: CInt) -> String {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = recv(descriptor, &bytes, bytes.count, CInt(MSG_DONTWAIT))
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}
