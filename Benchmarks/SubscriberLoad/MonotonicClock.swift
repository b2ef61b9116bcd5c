import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the one clock every write and receipt time is taken from.
enum MonotonicClock {
    static var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Polls `condition` every `interval` seconds until it holds.
    /// - Throws: `LoadError` naming `what` when `timeout` seconds pass first.
    static func wait(
        for what: String, timeout: Double, interval: Double = 0.2, until condition: () throws -> Bool
    ) throws {
        let deadline = now + UInt64(timeout * 1e9)
        while try !condition() {
            guard now < deadline else { throw LoadError("timed out after \(timeout) s waiting for \(what)") }
            usleep(UInt32(interval * 1e6))
        }
    }
}
