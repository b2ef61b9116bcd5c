import Glibc
import NIOCore

/// One connection of an `HLSLane`: a player's requests read, answered from its stream's desk and sent, one at a
/// time and in order, through the lane's ring.
///
/// At most one operation of the connection is in the ring at once, or one send linked to the next receive, and
/// their buffers stay alive and unmoved until they complete; the descriptor is closed only when nothing is in the
/// ring, so the kernel never meets a descriptor reused.
/// Reading pauses while a request is answered: a pipelined request waits in the socket. Confined to the lane's
/// loop.
final class HLSLaneConnection {
    let id: UInt64
    let descriptor: CInt
    /// Its lane, which keeps the connection until it closes.
    private let lane: HLSLane
    /// Gives the connection to NIO with what was read of the request being read.
    private let handBack: (ByteBuffer?) -> Void
    /// The received bytes not taken yet, from the start of the next request head.
    private var buffer: UnsafeMutableRawBufferPointer
    private var filled = 0
    private var state = State.peeking
    /// Whether an operation, or a linked send and receive, is in the ring.
    private var inRing = false
    /// Whether what is in the ring is a linked send and receive.
    private var linked = false
    /// The client's address, for its session key.
    private var address = ""
    /// The session key of the last request without a session parameter, and its user agent: a player's requests
    /// all say the same.
    private var clientKey: (userAgent: String, key: String)?
    /// When the connection is closed unless a request head or a send completes first.
    private(set) var deadline: NIODeadline?

    private enum State {
        /// Looking at the first bytes, left in the socket, to tell an HLS player from any other client.
        case peeking
        /// Receiving a request head.
        case reading
        /// A request is answered by its desk, maybe once its part exists.
        case answering(HLSReplyForm)
        /// Sending an answer: its bytes, what of them is sent, whether the connection closes after them.
        case sending(ByteBuffer, sent: Int, closes: Bool)
        /// Sending an answer whole, then receiving the next request, as one linked pair in the ring.
        case sendingThenReading(ByteBuffer)
        /// Shut down: closed once the operation in the ring completes, the bytes it sends kept until then.
        case closing(keeping: ByteBuffer?)
        case closed
    }

    /// What a request head may start with to be served here, as a prefix peeked at.
    private static let prefixes = [Array("GET /hls/".utf8), Array("HEAD /hls/".utf8)]
    /// The longest an answer may take to leave: a player that takes longer is not playing.
    private static let sendTimeout = TimeAmount.seconds(30)
    /// Room for a player's request head; grown up to `HTTPRequest.maximumHeadSize` and a little more.
    private static let initialCapacity = 1024

    init(id: UInt64, descriptor: CInt, lane: HLSLane, handBack: @escaping (ByteBuffer?) -> Void) {
        self.id = id
        self.descriptor = descriptor
        self.lane = lane
        self.handBack = handBack
        buffer = .allocate(byteCount: Self.initialCapacity, alignment: 1)
    }

    deinit {
        buffer.deallocate()
    }

    /// Waits for the client's first bytes.
    func start() {
        deadline = .now() + lane.server.headerTimeout
        let longest = Self.prefixes.map(\.count).max()!
        receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<longest]), peek: true)
    }

    /// What an operation in the ring returned (`bySend`: a send's): bytes received or sent, or a negative errno.
    func completed(_ result: Int32, bySend: Bool) {
        // A linked send completes only when it failed; its receive, cancelled then, completes after it, last.
        if bySend && linked { return close() }
        inRing = false
        switch state {
        case .peeking:
            peeked(Int(result))
        case .reading:
            guard result > 0 else { return close() }
            filled += Int(result)
            readHead()
        case .sending(let bytes, let sent, let closes):
            guard result > 0 else { return close() }
            let total = sent + Int(result)
            guard total == bytes.readableBytes else {
                state = .sending(bytes, sent: total, closes: closes)
                return sendRest()
            }
            if closes { return close() }
            state = .reading
            deadline = .now() + lane.server.headerTimeout
            readHead()
        case .sendingThenReading:
            // The send took every byte: this is the next request's receive.
            state = .reading
            linked = false
            guard result > 0 else { return close() }
            filled += Int(result)
            readHead()
        case .closing:
            finish()
        case .answering, .closed:
            break
        }
    }

    private func peeked(_ count: Int) {
        guard count > 0 else { return close() }
        let first = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        guard Self.prefixes.contains(where: { count >= $0.count && first.starts(with: $0) }) else {
            return giveToNIO(read: nil)
        }
        lane.server.count(\.connections)
        address = Self.peerAddress(of: descriptor)
        state = .reading
        receive(into: buffer, peek: false)
    }

    /// Answers the head in the buffer, or reads on for it; an unusual one goes to NIO.
    private func readHead() {
        switch PlainRequestHead(UnsafeRawBufferPointer(rebasing: buffer[..<filled])) {
        case .incomplete:
            if filled == buffer.count { grow() }
            receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), peek: false)
        case .unusual:
            giveToNIO(read: filled)
        case .head(let head, let length):
            guard let request = try? HTTPRequest(head), case .hls(let desks, let hlsRequest, let session)? =
                    try? HTTPRoute(request, mounts: lane.server.mounts) else {
                return giveToNIO(read: filled)
            }
            take(length)
            deadline = nil
            state = .answering(HLSReplyForm(request))
            desks.desk(on: lane.eventLoop).answer(hlsRequest, session: sessionKey(session, request)) { [self] result in
                answer(result)
            }
        }
    }

    private func sessionKey(_ session: String?, _ request: HTTPRequest) -> String {
        let client = ClientIdentity(address: address, request)
        guard session == nil else { return HLSSessions.key(session: session, client: client) }
        if let clientKey, clientKey.userAgent == client.userAgent { return clientKey.key }
        let key = HLSSessions.key(session: nil, client: client)
        clientKey = (client.userAgent, key)
        return key
    }

    private func answer(_ result: Result<HLSAnswer, HLSRefusal>) {
        guard case .answering(let form) = state else { return }
        let (bytes, keepAlive) = result.reply(as: form)
        if keepAlive, filled == 0, lane.linksSends {
            state = .sendingThenReading(bytes)
            deadline = .now() + lane.server.headerTimeout
            bytes.withUnsafeReadableBytes { inRing = lane.sendThenReceive(self, $0, into: buffer) }
            linked = inRing
            if !inRing { close() }
            return
        }
        state = .sending(bytes, sent: 0, closes: !keepAlive)
        deadline = .now() + Self.sendTimeout
        sendRest()
    }

    private func sendRest() {
        guard case .sending(let bytes, let sent, _) = state else { return }
        bytes.withUnsafeReadableBytes { whole in
            inRing = lane.send(self, UnsafeRawBufferPointer(rebasing: whole[sent...]))
        }
        if !inRing { close() }
    }

    private func receive(into target: UnsafeMutableRawBufferPointer, peek: Bool) {
        inRing = lane.receive(self, into: target, peek: peek)
        if !inRing { close() }
    }

    /// Drops the first `count` bytes of the buffer: a request taken.
    private func take(_ count: Int) {
        let rest = filled - count
        if rest > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + count, byteCount: rest) }
        filled = rest
    }

    private func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * buffer.count, alignment: 1)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
    }

    /// Leaves the connection to NIO, with the first `read` bytes of the buffer (none for nil), the request NIO
    /// reads next.
    private func giveToNIO(read: Int?) {
        state = .closed
        deadline = nil
        lane.remove(self)
        handBack(read.map { ByteBuffer(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<$0])) })
    }

    /// Closes the connection: at once when nothing of it is in the ring, else once that completes, which the
    /// shutdown hastens.
    func close() {
        switch state {
        case .closing, .closed: return
        case .sending(let bytes, _, _), .sendingThenReading(let bytes): state = .closing(keeping: bytes)
        default: state = .closing(keeping: nil)
        }
        deadline = nil
        guard inRing else { return finish() }
        shutdown(descriptor, CInt(SHUT_RDWR))
    }

    private func finish() {
        state = .closed
        Glibc.close(descriptor)
        lane.remove(self)
        lane.limit?.release()
    }

    /// The address of the socket's peer as NIO writes it, for a session key.
    private static func peerAddress(of descriptor: CInt) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard found == 0 else { return "" }
        let address = withUnsafeBytes(of: storage) { raw -> SocketAddress? in
            switch CInt(storage.ss_family) {
            case AF_INET: SocketAddress(raw.load(as: sockaddr_in.self), host: "")
            case AF_INET6: SocketAddress(raw.load(as: sockaddr_in6.self), host: "")
            default: nil
            }
        }
        return address?.ipAddress ?? ""
    }
}
