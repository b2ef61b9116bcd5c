import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// Serves the metrics in Prometheus's text format to any `GET`, on a TCP port or a Unix socket.
final class MetricsServer: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    /// Brings the gauges up to date before each reading.
    private let refresh: @Sendable () -> EventLoopFuture<Void>

    init(registry: PrometheusCollectorRegistry, refresh: @escaping @Sendable () -> EventLoopFuture<Void>) {
        self.registry = registry
        self.refresh = refresh
    }

    /// Listens at `address`, or on the socket systemd passed under the name `metrics`.
    static func start(
        at address: MetricsAddress, on eventLoop: EventLoop, inherited: InheritedSockets,
        registry: PrometheusCollectorRegistry, refresh: @escaping @Sendable () -> EventLoopFuture<Void>
    ) -> EventLoopFuture<ListeningSocket> {
        let bootstrap = ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(MetricsServer(registry: registry, refresh: refresh))
                }
            }
        switch address {
        case .tcp(let host, let port):
            return bootstrap.bind(host: host, port: port).map { ListeningSocket(channel: $0, createdFile: nil) }
        case .unix(let path):
            return ListeningSocket.listen(bootstrap, on: SocketConfig(path: path), name: "metrics",
                                          inherited: inherited, eventLoop: eventLoop)
        }
    }

    /// Whether the request being read lets the connection stay open after its answer.
    private var keepAlive = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): keepAlive = head.isKeepAlive
        case .body: break
        case .end: answer(on: context.channel, keepAlive: keepAlive)
        }
    }

    /// Writes the metrics as they are once the gauges are refreshed; closes afterwards unless the client keeps the
    /// connection (an HTTP/1.0 reader waits for the close to know the answer is complete).
    private func answer(on channel: Channel, keepAlive: Bool) {
        let registry = registry
        refresh().whenComplete { _ in
            var body: [UInt8] = []
            registry.emit(into: &body)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8")
            headers.add(name: "Content-Length", value: String(body.count))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
            channel.write(HTTPServerResponsePart.head(head), promise: nil)
            channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
            let written = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
            if !keepAlive { written.whenComplete { _ in channel.close(promise: nil) } }
        }
    }
}
