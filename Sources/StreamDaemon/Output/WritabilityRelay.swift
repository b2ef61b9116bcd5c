import NIOCore

/// Tells its owner when its channel can take writes again.
final class WritabilityRelay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let onWritable: () -> Void

    init(onWritable: @escaping () -> Void) {
        self.onWritable = onWritable
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { onWritable() }
        context.fireChannelWritabilityChanged()
    }
}
