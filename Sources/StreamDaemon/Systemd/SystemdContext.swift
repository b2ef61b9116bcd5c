import NIOCore

/// What systemd hands the daemon through its environment, each part optional: a socket for notifications, a
/// watchdog interval, and listening sockets.
public struct SystemdContext: Sendable {
    let notifier: SystemdNotifier?
    let watchdogInterval: TimeAmount?
    let sockets: InheritedSockets

    public init(environment: [String: String]) {
        notifier = SystemdNotifier(environment: environment)
        watchdogInterval = SystemdNotifier.watchdogInterval(environment: environment)
        sockets = InheritedSockets(environment: environment)
    }
}
