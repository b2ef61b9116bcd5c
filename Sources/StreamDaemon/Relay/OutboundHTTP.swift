import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The daemon's own requests to other HTTP servers, such as a master's mount list: one client for them all,
/// on the daemon's event loops, shut down with the daemon.
final class OutboundHTTP: Sendable {
    private let client: HTTPClient

    /// The largest answer body read: far more than any mount list or status document.
    static let maximumBody = 1 << 20

    init(group: EventLoopGroup) {
        var configuration = HTTPClient.Configuration()
        // Icecast's relays follow up to ten redirects.
        configuration.redirectConfiguration = .follow(max: 10, allowCycles: false)
        configuration.timeout = .init(connect: .seconds(10))
        client = HTTPClient(eventLoopGroup: group, configuration: configuration)
    }

    /// The answer to `method` on `url`, with `headers` and `body`, read whole on `eventLoop`; fails on a network
    /// error, after `timeout`, or when the body is larger than `maximumBody`.
    func fetch(_ url: URL, method: HTTPMethod = .GET, headers: HTTPHeaders = [:], body: String? = nil,
               timeout: TimeAmount, on eventLoop: EventLoop) -> EventLoopFuture<HTTPClient.Response> {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: method, headers: headers, body: body.map { .string($0) })
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return client.execute(request: request,
                              delegate: ResponseAccumulator(request: request, maxBodySize: Self.maximumBody),
                              eventLoop: .delegate(on: eventLoop), deadline: .now() + timeout).futureResult
    }

    /// Ends the requests under way and frees the client; succeeds once it is done.
    func shutdown() -> EventLoopFuture<Void> {
        client.shutdown()
    }
}
