import Foundation
import NIOCore
import NIOHTTP1

/// The access log's lines: one for each answer the connection finishes, one for a listener when it leaves.
extension HTTPConnection {
    /// Logs `answer`, a whole response to `head`, when the server keeps an access log.
    func logAccess(of answer: ByteBuffer, to head: HTTPRequestHead, since start: Date, context: ChannelHandlerContext) {
        guard let log = server.accessLog else { return }
        let bytes = answer.readableBytesView
        let status = bytes.count >= 12 ? Int(String(decoding: bytes.dropFirst(9).prefix(3), as: UTF8.self)) ?? 0 : 0
        let body = bytes.count - (bytes.firstRange(of: Self.endOfHead)?.upperBound ?? bytes.endIndex) + bytes.startIndex
        log.write(AccessLogEntry(head: head, address: Self.address(context), status: status, bytes: body, since: start))
    }

    /// Has the listener `socket` serves logged when it leaves, when the server keeps an access log.
    func logListener(_ head: HTTPRequestHead, user: String?, on socket: SubscriberSocket, context: ChannelHandlerContext) {
        guard let log = server.accessLog else { return }
        let (address, start) = (Self.address(context), Date())
        socket.onLeave = { subscriber in
            var entry = AccessLogEntry(head: head, address: address, status: 200, bytes: subscriber.sentBytes, since: start)
            entry.user = user
            log.write(entry)
        }
    }

    private static let endOfHead = Array("\r\n\r\n".utf8)

    /// The client's address, `-` when unknown.
    private static func address(_ context: ChannelHandlerContext) -> String {
        context.channel.remoteAddress?.ipAddress ?? "-"
    }
}

extension AccessLogEntry {
    /// The entry of an answer with `status` and `bytes` after its head to `head`, from `address`, which came at
    /// `start` and ends now.
    init(head: HTTPRequestHead, address: String, status: Int, bytes: Int, since start: Date) {
        let now = Date()
        self.init(address: address, user: nil, method: head.method.rawValue, target: head.uri,
                  version: "\(head.version.major).\(head.version.minor)", status: status, bytes: bytes,
                  referer: head.headers.first(name: "referer"), userAgent: head.headers.first(name: "user-agent"),
                  seconds: Int(now.timeIntervalSince(start)), date: now)
    }
}
