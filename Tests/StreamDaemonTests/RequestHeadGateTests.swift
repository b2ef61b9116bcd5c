import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// `RequestHeadGate`: the bytes up to a head's empty line go on at once, whatever the reads' boundaries; what
/// follows goes on too, unless the head's reader holds it, and then only when released.
@Suite struct RequestHeadGateTests {
    static let head = "PUT /live HTTP/1.1\r\nHost: a\r\n\r\n"
    static let body = "\r\n\r\nID3 and audio"

    /// What reaches the handler after the gate, read by read; if `holds`, it holds what follows the head once it has
    /// the head, as `HTTPConnection` does for a source client.
    final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let gate: RequestHeadGate
        let holds: Bool
        var reads: [String] = []

        init(gate: RequestHeadGate, holds: Bool) {
            self.gate = gate
            self.holds = holds
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            reads.append(String(buffer: unwrapInboundIn(data)))
            if holds, reads.joined() == RequestHeadGateTests.head { gate.hold() }
        }
    }

    static func feed(_ text: String, pieceSize: Int, holds: Bool) throws -> (Reader, EmbeddedChannel) {
        let gate = RequestHeadGate()
        let reader = Reader(gate: gate, holds: holds)
        let channel = EmbeddedChannel(handlers: [gate, reader])
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + pieceSize, bytes.count)]))
        }
        return (reader, channel)
    }

    @Test(arguments: [1, 3, 7, 1000])
    func whatFollowsAHeldHeadComesWholeOnRelease(pieceSize: Int) throws {
        let (reader, channel) = try Self.feed(Self.head + Self.body, pieceSize: pieceSize, holds: true)
        #expect(reader.reads.joined() == Self.head)
        reader.gate.release()
        try channel.writeInbound(ByteBuffer(string: " and more"))
        #expect(reader.reads.joined() == Self.head + Self.body + " and more")
        #expect((try? channel.pipeline.syncOperations.handler(type: RequestHeadGate.self)) == nil, "the gate stayed")
    }

    @Test(arguments: [1, 1000])
    func whatFollowsAHeadNotHeldGoesOn(pieceSize: Int) throws {
        let (reader, _) = try Self.feed(Self.head + Self.body, pieceSize: pieceSize, holds: false)
        #expect(reader.reads.joined() == Self.head + Self.body)
    }

    /// A connection's gate goes with its pipeline: the soak's heap grew by 300 bytes for each HTTP connection,
    /// the gate and its context keeping each other after the channel closed.
    @Test func aGateDoesNotOutliveItsChannel() throws {
        weak var leftGate: RequestHeadGate?
        do {
            let channel = EmbeddedChannel()
            let gate = RequestHeadGate()
            leftGate = gate
            try channel.pipeline.syncOperations.addHandler(gate)
            try channel.writeInbound(ByteBuffer(string: Self.head))
            _ = try channel.finish(acceptAlreadyClosed: false)
        }
        #expect(leftGate == nil)
    }
}
