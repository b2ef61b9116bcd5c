import Glibc

/// A timerfd on CLOCK_MONOTONIC, armed for absolute deadlines: readable once the deadline has passed.
final class DeadlineTimer {
    let descriptor: Int32

    init() throws {
        descriptor = LinuxCalls.timerCreate(CLOCK_MONOTONIC, O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw LoadError.system("timerfd_create") }
    }

    deinit {
        close(descriptor)
    }

    /// Fires once at `deadline` (monotonic nanoseconds); a deadline already past fires at once.
    func arm(at deadline: UInt64) throws {
        let due = max(deadline, 1)
        var setting = itimerspec(
            it_interval: timespec(),
            it_value: timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000)))
        guard LinuxCalls.timerSet(descriptor, LinuxCalls.timerAbsolute, &setting, nil) == 0 else {
            throw LoadError.system("timerfd_settime")
        }
    }

    /// Clears the expiry so the poller stops reporting it.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}
