import Dispatch
import Glibc
import NIOConcurrencyHelpers
import Synchronization

/// Catches SIGTERM, SIGINT and SIGHUP from the very start of the process, before the supervisor exists: a stop
/// asked for while the daemon starts is kept and applied once it can be, and an early reload is moot since
/// the configuration is read afterwards anyway.
public final class SignalRouter: Sendable {
    private let state = NIOLockedValueBox<(supervisor: Supervisor?, stopRequested: Bool)>((nil, false))
    /// Touched by `init` and `deinit` only; the lock is what lets the compiler see that.
    private let sources: Mutex<[DispatchSourceSignal]>

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
        Self.holdSignals()
        sources = Mutex([(SIGTERM, stop), (SIGINT, stop), (SIGHUP, reload)].map { number, action in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        })
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and every thread it starts later: their default
    /// actions (ending the process) never run, and a signal that arrives before the router exists stays
    /// pending until its dispatch source reads it. Call it first thing in `main`.
    public static func holdSignals() {
        var held = sigset_t()
        sigemptyset(&held)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&held, number) }
        pthread_sigmask(SIG_BLOCK, &held, nil)
    }

    deinit {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
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
