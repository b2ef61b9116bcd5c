import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Icecast's URL authentication of listeners (`http.auth`): a listener is posted to the backend's `listenerAdd`
/// with Icecast's fields, and admitted when the answer carries `icecast-auth-user: 1`, whatever its status, as
/// Icecast admits them; `icecast-auth-timelimit` bounds its stay and `icecast-auth-message` says why it was
/// refused. An admitted listener's leaving is posted to `listenerRemove`, with its seconds. A backend written for
/// Icecast (a station panel's) works unchanged.
final class ListenerAuth: Sendable {
    /// Who asks to listen, as the backend is told.
    struct Listener: Sendable {
        /// Unique among the server's listeners: what `listener_remove` names again.
        let client: Int
        let mount: String
        let user: String
        let password: String
        let address: String
        let userAgent: String
        /// The server as the listener reached it: host and port.
        let server: String
        let port: Int
    }

    /// The backend's word on a listener.
    enum Verdict: Equatable, Sendable {
        /// Served, for at most `timeLimit` seconds if the backend set one.
        case admitted(timeLimit: Double?)
        /// Refused, with the backend's message if it gave one.
        case refused(message: String?)
        /// The backend could not be asked, or did not answer: `onFailure` decides.
        case failed(reason: String)
    }

    let config: ListenerAuthConfig
    private let client: OutboundHTTP
    private let logger: Logger
    /// The `listener_remove` posts under way, by number.
    private let removals = NIOLockedValueBox<(last: Int, pending: [Int: EventLoopFuture<Void>])>((0, [:]))

    init(config: ListenerAuthConfig, client: OutboundHTTP, logger: Logger) {
        self.config = config
        self.client = client
        self.logger = logger
    }

    /// Asks the backend whether `listener` may listen; the answer comes on `eventLoop`.
    func add(_ listener: Listener, on eventLoop: EventLoop) -> EventLoopFuture<Verdict> {
        let body = Self.form([("action", "listener_add")] + fields(of: listener, duration: nil))
        return post(body, to: config.listenerAdd, on: eventLoop).map { response in
            let headers = response.headers
            guard headers.first(name: "icecast-auth-user") == "1" else {
                // A server error (a proxy's 502) is the backend's failure, not its word on the listener.
                guard response.status.code < 500 else {
                    return .failed(reason: "the backend answered \(response.status.code) \(response.status.reasonPhrase)")
                }
                return .refused(message: headers.first(name: "icecast-auth-message"))
            }
            return .admitted(timeLimit: headers.first(name: "icecast-auth-timelimit").flatMap(Self.timeLimit))
        }.recover { .failed(reason: NetworkErrorText.describe($0)) }
    }

    /// The seconds of `icecast-auth-timelimit`, when it names some: a value beyond a year is a year, so that no
    /// number a backend sends overflows a timer.
    static func timeLimit(_ text: String) -> Double? {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, 365 * 86400)
    }

    /// Tells the backend that `listener`, admitted, left after `seconds`; its answer is not waited for, but
    /// `drain(within:on:)` waits for the posts under way.
    func remove(_ listener: Listener, after seconds: Int, on eventLoop: EventLoop) {
        guard let url = config.listenerRemove else { return }
        let body = Self.form([("action", "listener_remove")] + fields(of: listener, duration: seconds))
        let posted = post(body, to: url, on: eventLoop)
        let id = removals.withLockedValue { removals in
            removals.last += 1
            removals.pending[removals.last] = posted.map { _ in }
            return removals.last
        }
        posted.whenComplete { [logger, removals] result in
            removals.withLockedValue { _ = $0.pending.removeValue(forKey: id) }
            if case .failure(let error) = result {
                logger.warning("listener_remove of client \(listener.client) not posted: \(NetworkErrorText.describe(error))")
            }
        }
    }

    /// Succeeds once every `listener_remove` under way has been answered, or `timeout` has passed: the daemon
    /// stopping lets the backend hear its listeners leave.
    func drain(within timeout: TimeAmount, on eventLoop: EventLoop) -> EventLoopFuture<Void> {
        let pending = removals.withLockedValue { Array($0.pending.values) }
        let promise = eventLoop.makePromise(of: Void.self)
        let deadline = eventLoop.scheduleTask(in: timeout) { promise.succeed() }
        EventLoopFuture.andAllComplete(pending, on: eventLoop).whenComplete { _ in
            deadline.cancel()
            promise.succeed()
        }
        return promise.futureResult
    }

    /// Icecast's fields, in its order: `duration` before the address on a removal.
    private func fields(of listener: Listener, duration: Int?) -> [(String, String)] {
        [("server", listener.server), ("port", String(listener.port)), ("client", String(listener.client)),
         ("mount", listener.mount), ("user", listener.user), ("pass", listener.password)]
            + (duration.map { [("duration", String($0))] } ?? [])
            + [("ip", listener.address), ("agent", listener.userAgent.isEmpty ? "-" : listener.userAgent)]
    }

    private func post(_ body: String, to url: URL, on eventLoop: EventLoop) -> EventLoopFuture<HTTPClient.Response> {
        client.fetch(url, method: .POST, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body,
                     timeout: .nanoseconds(Int64(config.timeout * 1e9)), on: eventLoop)
    }

    /// `name=value&…`, each byte of a value but letters and digits escaped as Icecast escapes them (`%xx`).
    static func form(_ fields: [(String, String)]) -> String {
        fields.map { name, value in
            name + "=" + value.utf8.map { byte -> String in
                let isSafe = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                return isSafe ? String(UnicodeScalar(byte)) : String(format: "%%%02x", byte)
            }.joined()
        }.joined(separator: "&")
    }
}
