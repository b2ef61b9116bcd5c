import Dispatch
import Glibc
import NIOConcurrencyHelpers

/// Catches SIGTERM, SIGINT and SIGHUP from the very start of the process, before the supervisor exists: a stop
/// asked for while the daemon starts is kept and applied once it can be, and an early reload is moot since
/// the configuration is read afterwards anyway.
final class SignalRouter: Sendable {
    private let state = NIOLockedValueBox<(supervisor: Supervisor?, stopRequested: Bool)>((nil, false))
    private let sources: [UncheckedSignalSource]

    init() {
        let state = self.state
        let stop: @Sendable () -> Void = {
            let supervisor = state.withLockedValue { state in
                state.stopRequested = true
                return state.supervisor
            }
            supervisor?.stop()
        }
        let reload: @Sendable () -> Void = { state.withLockedValue { $0.supervisor }?.reload() }
        sources = [(SIGTERM, stop), (SIGINT, stop), (SIGHUP, reload)].map { number, action in
            // The default actions would end the process; the dispatch source sees the signal all the same.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return UncheckedSignalSource(source: source)
        }
    }

    deinit {
        for source in sources { source.source.cancel() }
    }

    /// Whether SIGTERM or SIGINT has arrived.
    var stopRequested: Bool { state.withLockedValue { $0.stopRequested } }

    /// Routes signals to `supervisor` from now on, and stops it at once if a stop was asked for already.
    func attach(_ supervisor: Supervisor) {
        if state.withLockedValue({ state in
            state.supervisor = supervisor
            return state.stopRequested
        }) {
            supervisor.stop()
        }
    }
}

/// A dispatch source, cancelled only by its router's deinit.
private struct UncheckedSignalSource: @unchecked Sendable {
    let source: DispatchSourceSignal
}
