import Glibc
import NIOCore

/// Tells systemd how the service is doing (`sd_notify`): datagrams such as `READY=1` to `$NOTIFY_SOCKET`, a
/// path or, with a leading `@`, an abstract socket. Needs no libsystemd; without `$NOTIFY_SOCKET` there is none.
public final class SystemdNotifier: Sendable {
    private let address: [UInt8]

    /// The notifier `environment` asks for, or nil when the service is not run by systemd with notification.
    public init?(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"), path.utf8.count > 1,
              path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        else { return nil }
        // An abstract address starts with a zero byte where the text has '@'.
        address = path.hasPrefix("@") ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
    }

    /// Sends `fields` (`KEY=value` lines) in one datagram. Failures are ignored: systemd's side may be gone
    /// while the service winds down, and the service must not suffer for it.
    public func notify(_ fields: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { $0.copyBytes(from: address) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let message = Array(fields.utf8)
        _ = withUnsafePointer(to: &target) { target in
            target.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
    }

    public func ready(status: String) {
        notify("READY=1\nSTATUS=\(status)")
    }

    public func status(_ status: String) {
        notify("STATUS=\(status)")
    }

    /// A reload begins; `ready(status:)` ends it.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        notify("RELOADING=1\nMONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)")
    }

    public func stopping() {
        notify("STOPPING=1")
    }

    public func watchdog() {
        notify("WATCHDOG=1")
    }

    /// How often systemd wants `WATCHDOG=1`: half its `$WATCHDOG_USEC`, as sd_watchdog_enabled advises; nil
    /// when the watchdog is off or meant for another process.
    public static func watchdogInterval(environment: [String: String]) -> TimeAmount? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        return .microseconds(microseconds / 2)
    }
}
