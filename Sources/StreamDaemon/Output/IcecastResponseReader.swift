import NIOCore

/// Reads the status of an Icecast server's answer on a source or admin connection, then drops whatever else the
/// server sends, so nothing is buffered.
final class IcecastResponseReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// The longest answer head read before giving up on it.
    static let maximumHeadSize = 8192

    private var head = ByteBuffer()
    private var answered = false
    /// Called once, on the channel's loop: the status code, or nil for an answer that is not HTTP.
    private let onStatus: (Int?) -> Void
    /// Called when the connection closes, on the channel's loop.
    private let onClose: () -> Void

    init(onStatus: @escaping (Int?) -> Void, onClose: @escaping () -> Void) {
        self.onStatus = onStatus
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        var bytes = unwrapInboundIn(data)
        head.writeBuffer(&bytes)
        let view = head.readableBytesView
        guard let lineEnd = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if head.readableBytes > Self.maximumHeadSize { answer(nil) }
            return
        }
        // "HTTP/1.1 100 Continue": the second word is the status.
        let line = String(decoding: view[view.startIndex..<lineEnd], as: UTF8.self)
        let words = line.split(separator: " ")
        answer(words.count >= 2 && words[0].hasPrefix("HTTP/") ? Int(words[1]) : nil)
    }

    private func answer(_ status: Int?) {
        answered = true
        head = ByteBuffer()
        onStatus(status)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
