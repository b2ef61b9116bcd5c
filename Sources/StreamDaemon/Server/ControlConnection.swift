import AudioStreamProtocol
import Foundation
import NIOCore

/// One client of the control socket: reads a request, writes the answer, closes.
final class ControlConnection: ChannelInboundHandler {
    typealias InboundIn = WireFrame
    typealias OutboundOut = ByteBuffer

    /// Answers a command name with the response's JSON, or nil for an unknown command.
    typealias Respond = @Sendable (String) -> EventLoopFuture<JSON>?

    /// A client has 5 s to send its request.
    private let requestDeadline = RequestDeadline(timeout: .seconds(5))
    private let respond: Respond

    init(respond: @escaping Respond) {
        self.respond = respond
    }

    func channelActive(context: ChannelHandlerContext) {
        requestDeadline.start(for: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let request = try? JSONSerialization.jsonObject(with: Data(frame.payload.readableBytesView)) as? [String: Any]
        let command = request?["command"] as? String ?? ""
        guard frame.type == WireMessageType.request.rawValue, let answer = respond(command) else {
            reply(.error, WireProtocol.error("unknown request; send \(WireProtocol.statusRequest.text)"), context)
            return
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        answer.hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = loopBound.value
            switch result {
            case .success(let json): handler.reply(.response, json, context)
            case .failure(let error): handler.reply(.error, WireProtocol.error("\(error)"), context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func reply(_ type: WireMessageType, _ json: JSON, _ context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WireEncoding.message(type, json: json, allocator: channel.allocator)))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
