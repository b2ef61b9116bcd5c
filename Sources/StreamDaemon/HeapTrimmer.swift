import CMalloc
import NIOCore

/// Hands the heap's free pages back to the system every `interval`, so that the daemon's resident memory follows
/// the memory it uses, not the most it ever used.
///
/// Subscribers that come, stall and leave at random make the heap peak now and then, and leave it fragmented.
/// glibc gives memory back to the system only from the top of an arena, so each new peak raised RSS for good: in
/// the soak, the heap in use stayed between 49 and 54 MiB (medians of each minute) while RSS crept up a megabyte
/// every few minutes, and RSS stayed up once every client had left and the heap in use was back to 10 MiB.
/// `malloc_trim` also releases the whole free pages inside the arenas, so RSS goes down with the heap in use.
enum HeapTrimmer {
    /// Each trim takes about a millisecond (15 ms at most in the soak, on a loaded machine).
    static let interval = TimeAmount.seconds(30)

    /// Trims the heap every `interval` on `eventLoop` until the task is cancelled.
    static func start(on eventLoop: EventLoop, interval: TimeAmount = interval,
                      trim: @escaping @Sendable () -> Void = { _ = malloc_trim(0) }) -> RepeatedTask {
        eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in trim() }
    }
}
