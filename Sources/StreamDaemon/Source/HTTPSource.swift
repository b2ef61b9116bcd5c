import AudioStreamProtocol
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An HTTP(S) stream such as an internet radio station: connects, follows redirects, strips ICY metadata, and
/// after a failure or the end of the response connects again as its policy says.
///
/// Confined to its event loop, which every entry point checks; what it receives goes to its delegate there.
final class HTTPSource {
    /// How one connection ended.
    enum Outcome {
        /// The response ended normally.
        case ended
        case redirected(HTTPSourceTarget)
        case failed(String)
        /// No byte came for the stall timeout.
        case stalled
    }

    /// At most this many redirects are followed for one attempt.
    static let maximumRedirects = 5

    let config: HTTPSourceConfig
    private let eventLoop: EventLoop
    private let logger: Logger
    private unowned let delegate: NetworkSourceDelegate
    private var backoff: ReconnectBackoff?
    private var tlsContext: NIOSSLContext?
    /// Numbers connections, so that late events of an abandoned one are ignored.
    private var attempt = 0
    private var redirectsLeft = HTTPSource.maximumRedirects
    private var channel: Channel?
    private var retry: Scheduled<Void>?
    private var response = Response.none
    private var stopped = false
    /// Connections that delivered a response after the first one.
    private(set) var reconnects = 0
    private var everConnected = false
    /// The ICY block last handed on.
    private var lastMetadata: ICYMetadata?
    /// Whether a response is being received now.
    var isConnected: Bool { response != .none }

    /// Where the current connection is.
    private enum Response {
        case none
        /// A response began; no frame of audio yet.
        case begun
        /// The response gave a whole, confirmed frame: it is a station, and the failures before it are forgotten.
        case audio
    }

    /// Counts reconnects for the metrics.
    private let reconnectCounter: Counter?

    init(config: HTTPSourceConfig, eventLoop: EventLoop, logger: Logger, reconnects: Counter? = nil,
         delegate: NetworkSourceDelegate) {
        self.config = config
        reconnectCounter = reconnects
        self.eventLoop = eventLoop
        self.logger = logger
        self.delegate = delegate
        backoff = config.reconnect.map(ReconnectBackoff.init(policy:))
    }

    /// Connects; after `stop()`, connects again, as a first attempt.
    func start() {
        eventLoop.preconditionInEventLoop()
        stopped = false
        backoff?.reset()
        redirectsLeft = Self.maximumRedirects
        connect(to: HTTPSourceTarget(url: config.url))
    }

    /// Closes the connection and cancels any attempt to come; the delegate hears nothing more until `start()`.
    func stop() {
        eventLoop.preconditionInEventLoop()
        stopped = true
        retry?.cancel()
        channel?.close(promise: nil)
        channel = nil
        response = .none
    }

    /// Ends the response under way, if any, as a failure for `reason`: it is announced as `lost` and the source
    /// connects again as its policy says (Icecast's `killsource` of a relayed mount).
    /// - Returns: whether a response was under way.
    func dropConnection(reason: String) -> Bool {
        eventLoop.preconditionInEventLoop()
        guard isConnected, !stopped, let channel else { return false }
        finished(.failed(reason), attempt: attempt)
        // What the closed connection reports later is an abandoned attempt's.
        attempt += 1
        channel.close(promise: nil)
        return true
    }

    private func connect(to target: HTTPSourceTarget) {
        attempt += 1
        let attempt = attempt
        let url = target.url
        guard let host = url.host, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return finished(.failed("cannot fetch \(url.absoluteString): only http and https are supported"),
                            attempt: attempt)
        }
        let tls: NIOSSLContext?
        do {
            tls = scheme == "https" ? try tlsContextForHTTPS() : nil
        } catch {
            return finished(.failed("TLS setup failed: \(NetworkErrorText.describe(error))"), attempt: attempt)
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else {
            return finished(.failed("cannot fetch \(url.absoluteString): port \(port) is out of range"), attempt: attempt)
        }
        let stallTimeout = config.stallTimeout
        // The channel is made on this loop, so its handler and the source meet here only.
        let handler = NIOLoopBound(
            HTTPSourceHandler(source: self, attempt: attempt, target: target), eventLoop: eventLoop)
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(Int64(config.connectTimeout * 1e9)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        // SNI carries names only, never an address.
                        let name = IPAddressText.isAddress(host) ? nil : host
                        try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: name))
                    }
                    try pipeline.addHandler(ICYStatusLine())
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(IdleStateHandler(readTimeout: .nanoseconds(Int64(stallTimeout * 1e9))))
                    try pipeline.addHandler(handler.value)
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                let source = loopBound.value
                switch result {
                case .success(let channel):
                    if attempt == source.attempt && !source.stopped {
                        source.channel = channel
                    } else {
                        channel.close(promise: nil)
                    }
                case .failure(let error):
                    source.finished(.failed(NetworkErrorText.describe(error)), attempt: attempt)
                }
            }
    }

    private func tlsContextForHTTPS() throws -> NIOSSLContext {
        if let tlsContext { return tlsContext }
        let context = try NIOSSLContext(configuration: .makeClientConfiguration())
        tlsContext = context
        return context
    }

    // MARK: - From the connection's handler

    func connected(_ info: HTTPStreamInfo, attempt: Int) {
        eventLoop.preconditionInEventLoop()
        guard attempt == self.attempt, !stopped else { return }
        response = .begun
        redirectsLeft = Self.maximumRedirects
        if everConnected {
            reconnects += 1
            reconnectCounter?.increment()
        }
        everConnected = true
        delegate.sourceChanged(.connected(attempt: backoff?.failures ?? 0))
        logger.info("connected to \(config.url.withoutCredentials.absoluteString)", metadata: [
            "contentType": "\(info.contentType ?? "-")", "icyMetaint": "\(info.metaint.map(String.init) ?? "-")",
        ])
        delegate.sourceConnected(info)
    }

    /// Hands audio on; the first confirmed frame of a connection ends the run of failures, so that the next one
    /// waits the initial delay again, however short the connection.
    /// - Returns: whether the connection has given a confirmed frame.
    func received(audio: UnsafeRawBufferPointer, attempt: Int) -> Bool {
        // Every read of audio: a debug check, free in release builds.
        eventLoop.assertInEventLoop()
        guard attempt == self.attempt, !stopped else { return false }
        if !audio.isEmpty, delegate.sourceReceived(audio: audio), response == .begun {
            response = .audio
            backoff?.reset()
        }
        return response == .audio
    }

    /// An ICY block goes on only when it differs from the last one, over every connection: many stations repeat
    /// the title in every block.
    func received(_ metadata: ICYMetadata, attempt: Int) {
        eventLoop.preconditionInEventLoop()
        guard attempt == self.attempt, !stopped, metadata != lastMetadata else { return }
        lastMetadata = metadata
        delegate.sourceReceived(metadata)
    }

    /// The connection is over: follow a redirect, or connect again after the policy's wait, or end. Every
    /// ending but a redirect is announced as `lost` or `stalled`, and a new attempt as `reconnecting`.
    func finished(_ outcome: Outcome, attempt: Int) {
        eventLoop.preconditionInEventLoop()
        guard attempt == self.attempt, !stopped else { return }
        channel = nil
        response = .none
        let reason: String
        switch outcome {
        case .redirected(let target):
            guard redirectsLeft > 0 else {
                reason = "more than \(Self.maximumRedirects) redirects"
                break
            }
            redirectsLeft -= 1
            logger.info("redirected to \(target.url.absoluteString)")
            return connect(to: target)
        case .ended:
            reason = "the server ended the stream"
        case .failed(let problem):
            reason = problem
        case .stalled:
            reason = "stalled: no data for \(config.stallTimeout.secondsText) s"
        }
        redirectsLeft = Self.maximumRedirects
        let lost: SourceState = if case .stalled = outcome { .stalled(error: reason) } else { .lost(error: reason) }
        delegate.sourceChanged(lost)
        guard backoff != nil else {
            logger.warning("source lost: \(reason)")
            if case .ended = outcome { return delegate.sourceEnded(failure: nil) }
            return delegate.sourceEnded(failure: reason)
        }
        guard let delay = backoff?.nextDelay() else {
            let failures = backoff?.failures ?? 0
            logger.error("source lost: \(reason); giving up after \(failures) failed attempts")
            return delegate.sourceEnded(failure: "\(reason) (gave up after \(failures) failed attempts)")
        }
        let seconds = Double(delay.nanoseconds) / 1e9
        logger.warning("source lost: \(reason); reconnecting in \(String(format: "%.1f", seconds)) s")
        delegate.sourceChanged(.reconnecting(attempt: backoff?.failures ?? 0, delay: seconds))
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        retry = eventLoop.scheduleTask(in: delay) {
            let source = loopBound.value
            source.retry = nil
            source.connect(to: HTTPSourceTarget(url: source.config.url))
        }
    }
}

/// Whether a host is written as an IP address.
enum IPAddressText {
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
