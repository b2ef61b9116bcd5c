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

/// Heads whose lines end with a bare LF, as DarkIce writes them and Icecast reads them (RFC 9112 §2.2): the decoder
/// gets each line ended with CRLF, whatever the reads' boundaries, and what follows the head untouched.
@Suite struct BareLineFeedHeadTests {
    /// DarkIce 1.3's head, byte for byte as it sent it to a listening socket: LF after each line but the last.
    static let darkIce = "SOURCE /live HTTP/1.0\nContent-type: audio/mpeg\nAuthorization: Basic c291cmNlOmhhY2ttZQ==\n"
        + "User-Agent: DarkIce/1.3 (http://code.google.com/p/darkice/)\nice-bitrate: 128\nice-public: 0\n"
        + "ice-name: DarkIce trial\r\n\r\n"
    static let body = "\n\r\n\nID3\r and audio\n"

    final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let gate: RequestHeadGate
        var reads: [String] = []
        var held = false

        init(gate: RequestHeadGate) {
            self.gate = gate
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            reads.append(String(buffer: unwrapInboundIn(data)))
            if !held, reads.joined().hasSuffix("\r\n\r\n") {
                held = true
                gate.hold()
            }
        }
    }

    static func crlf(_ head: String) -> String {
        head.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }

    @Test(arguments: [darkIce, "SOURCE /live ICE/1.0\nAuthorization: Basic c291cmNlOmhhY2ttZQ==\n\n",
                      "GET /live HTTP/1.0\r\nIcy-MetaData: 1\n\r\n", "PUT /live HTTP/1.1\nHost: a\r\n\n"],
          [1, 2, 5, 1000])
    func aHeadOfBareLineFeedsReachesTheDecoderInCRLFAndItsBodyUntouched(head: String, pieceSize: Int) throws {
        let gate = RequestHeadGate()
        let reader = Reader(gate: gate)
        let channel = EmbeddedChannel(handlers: [gate, reader])
        let bytes = Array((head + Self.body).utf8)
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + pieceSize, bytes.count)]))
        }
        #expect(reader.reads.joined() == Self.crlf(head))
        gate.release()
        #expect(reader.reads.joined() == Self.crlf(head) + Self.body)
    }

    /// DarkIce's head, read by NIOHTTP1 and routed: with no stream at `/live`, a 404 rather than a 400.
    @Test func darkIcesHeadIsReadAsARequest() throws {
        #expect(try HTTPConnectionTests.answer(Self.darkIce) == "HTTP/1.0 404 Not Found")
        #expect(try HTTPConnectionTests.answer(Array(Self.darkIce.utf8), pieces: 40) == "HTTP/1.0 404 Not Found")
        #expect(try HTTPConnectionTests.answer("GET /radio HTTP/1.1\nHost: a\n\n") == "HTTP/1.1 404 Not Found")
    }
}
