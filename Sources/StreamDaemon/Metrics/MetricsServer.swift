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
    /// The reader's time to send each whole request, from the connection or the previous answer.
    private let requestDeadline: RequestDeadline

    init(registry: PrometheusCollectorRegistry, requestTimeout: TimeAmount,
         refresh: @escaping @Sendable () -> EventLoopFuture<Void>) {
        self.registry = registry
        requestDeadline = RequestDeadline(timeout: requestTimeout)
        self.refresh = refresh
    }

    /// How long a reader may take to send a whole request: the HTTP server's header deadline.
    static let requestTimeout = TimeAmount.nanoseconds(Int64(HTTPServerConfig.defaultHeaderTimeout * 1e9))

    /// Listens at `address`, or on the socket systemd passed under the name `metrics`; a connection whose request
    /// is not whole within `requestTimeout` (of the connection or the previous answer) is closed.
    static func start(
        at address: MetricsAddress, on eventLoop: EventLoop, inherited: InheritedSockets,
        registry: PrometheusCollectorRegistry, requestTimeout: TimeAmount = requestTimeout,
        refresh: @escaping @Sendable () -> EventLoopFuture<Void>
    ) -> EventLoopFuture<ListeningSocket> {
        let bootstrap = ServerBootstrap(group: eventLoop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try configure(channel.pipeline.syncOperations, registry: registry,
                                  requestTimeout: requestTimeout, refresh: refresh)
                }
            }
        switch address {
        case .tcp(let host, let port):
            // Bound as the HTTP server's socket is, so that a port in use is told in the same plain words.
            do {
                let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
                let descriptor = try ListeningDescriptor.open(address, reuseAddress: true)
                return bootstrap.withBoundSocket(descriptor).map { ListeningSocket(channel: $0, createdFile: nil) }
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
        case .unix(let path):
            return ListeningSocket.listen(bootstrap, on: SocketConfig(path: path), name: "metrics",
                                          inherited: inherited, eventLoop: eventLoop)
        }
    }

    /// Sets up a connection: HTTP, then the answers.
    static func configure(
        _ pipeline: ChannelPipeline.SynchronousOperations, registry: PrometheusCollectorRegistry,
        requestTimeout: TimeAmount = requestTimeout, refresh: @escaping @Sendable () -> EventLoopFuture<Void>
    ) throws {
        try pipeline.configureHTTPServerPipeline()
        try pipeline.addHandler(MetricsServer(registry: registry, requestTimeout: requestTimeout, refresh: refresh))
    }

    /// Whether the request being read lets the connection stay open after its answer.
    private var keepAlive = false

    func channelActive(context: ChannelHandlerContext) {
        requestDeadline.start(for: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): keepAlive = head.isKeepAlive
        case .body: break
        case .end:
            requestDeadline.met()
            answer(on: context.channel, keepAlive: keepAlive)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline.stop()
        context.fireChannelInactive()
    }

    /// Writes the metrics as they are once the gauges are refreshed; closes afterwards unless the client keeps the
    /// connection (an HTTP/1.0 reader waits for the close to know the answer is complete). The deadline starts
    /// again for the next request, or for a reader slow to take the answer before the close.
    private func answer(on channel: Channel, keepAlive: Bool) {
        let registry = registry
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        refresh().hop(to: channel.eventLoop).whenComplete { _ in
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
            handler.value.requestDeadline.start(for: channel)
        }
    }
}
