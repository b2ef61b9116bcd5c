import CSendRing
import Foundation
import NIOCore
import Synchronization

/// An event loop on a thread of its own that sleeps in io_uring instead of epoll, so that the completions of
/// many connections wake it once a batch of them has come, or, half a millisecond into its sleep, as soon as one
/// has (Linux 6.13; before that, at the first). A NIO loop wakes for every few requests of a thousand players and
/// spends a good share of its time going to sleep and waking up; this one wakes far less often for the same work.
///
/// Tasks and timers work as on any `EventLoop`; another thread's task wakes the loop through an eventfd the ring
/// reads. The ring itself, and the completions, belong to the loop's thread (`ring`, `onCompletion`), as does
/// every operation queued in it.
final class RingEventLoop: EventLoop, @unchecked Sendable {
    /// The ring, for operations queued on the loop's thread; nil once the loop stopped.
    var ring: OpaquePointer? {
        preconditionInEventLoop()
        return confined.ring
    }

    /// Called on the loop for each completion of an operation queued in `ring`, with its tag (never 0, the
    /// loop's own) and result.
    var onCompletion: (UInt64, Int32) -> Void {
        get { preconditionInEventLoop(); return confined.onCompletion }
        set { preconditionInEventLoop(); confined.onCompletion = newValue }
    }

    /// Called on the loop when the ring fails to submit or wait, with the negative errno; the loop goes on, at
    /// most a hundred times a second while it fails.
    var onFailure: (CInt) -> Void {
        get { preconditionInEventLoop(); return confined.onFailure }
        set { preconditionInEventLoop(); confined.onFailure = newValue }
    }

    private let shared = Mutex(Shared())
    /// The loop's thread, once it runs (`pthread_t`).
    private let thread = Atomic<UInt>(0)
    /// Written to wake the loop; the ring has a read of it queued whenever the loop sleeps.
    private let wake: CInt
    /// What only the loop's thread touches; set up on it.
    private var confined = Confined()

    private struct Shared {
        var tasks: [@Sendable () -> Void] = []
        var timers: [Timer] = []
        var lastTimerID: UInt64 = 0
        /// Whether the eventfd was written since the loop last took its tasks.
        var woken = false
        var stopping = false
        var stopped: [@Sendable () -> Void] = []
        var finished = false
    }

    private struct Timer {
        let id: UInt64
        let deadline: NIODeadline
        let run: () -> Void
        let cancel: () -> Void
    }

    private struct Confined {
        var ring: OpaquePointer?
        var onCompletion: (UInt64, Int32) -> Void = { _, _ in }
        var onFailure: (CInt) -> Void = { _ in }
        /// Completions taken per call, and the eventfd's count, in memory allocated once.
        let tags = UnsafeMutablePointer<UInt64>.allocate(capacity: RingEventLoop.reapCount)
        let results = UnsafeMutablePointer<Int32>.allocate(capacity: RingEventLoop.reapCount)
        let wakeBuffer = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        /// Whether the eventfd's read is in the ring.
        var wakeQueued = false
    }

    private static let reapCount = 256
    /// Operations per submission; more wait for the next.
    private static let entries: UInt32 = 256
    /// Completions that wake the loop at once, and how long into its sleep it waits for them before one is enough.
    private static let batch: UInt32 = 64
    private static let batchWaitMicroseconds: UInt32 = 500

    /// Starts the loop's thread, named `name`, and waits for its ring.
    /// - Throws: `IOError` with the errno where io_uring or the eventfd is refused.
    init(name: String) throws {
        wake = connection_ring_wake_create()
        guard wake >= 0 else { throw IOError(errnoCode: errno, reason: "eventfd") }
        let started = DispatchSemaphore(value: 0)
        let failure = Mutex<CInt>(0)
        let thread = Thread { [self] in
            self.thread.store(UInt(pthread_self()), ordering: .releasing)
            // Set on the thread itself, where Foundation names the kernel's thread too (`top -H`, perf).
            Thread.current.name = name
            confined.ring = connection_ring_create(Self.entries)
            if confined.ring == nil { failure.withLock { $0 = errno } }
            started.signal()
            if confined.ring != nil { run() }
            // The thread's id may be another's once it ends.
            self.thread.store(0, ordering: .releasing)
        }
        thread.start()
        started.wait()
        let refused = failure.withLock { $0 }
        guard refused == 0 else {
            Glibc.close(wake)
            throw IOError(errnoCode: refused, reason: "io_uring_setup")
        }
    }

    deinit {
        confined.wakeBuffer.deallocate()
        confined.tags.deallocate()
        confined.results.deallocate()
    }

    var inEventLoop: Bool {
        pthread_equal(pthread_self(), pthread_t(thread.load(ordering: .acquiring))) != 0
    }

    func execute(_ task: @escaping @Sendable () -> Void) {
        let inLoop = inEventLoop
        shared.withLock { shared in
            guard !shared.stopping else { return }
            shared.tasks.append(task)
            // Written under the lock, so never after the loop closed it.
            if !shared.woken, !inLoop { connection_ring_wake(wake) }
            shared.woken = true
        }
    }

    @discardableResult
    func scheduleTask<T>(deadline: NIODeadline, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
        let promise = makePromise(of: T.self)
        let id = shared.withLock { shared -> UInt64 in
            shared.lastTimerID += 1
            shared.timers.append(Timer(id: shared.lastTimerID, deadline: deadline,
                                       run: {
                                           promise.assumeIsolatedUnsafeUnchecked().completeWith(Result { try task() })
                                       },
                                       cancel: { promise.fail(EventLoopError.cancelled) }))
            return shared.lastTimerID
        }
        // The loop works out how long to sleep again.
        execute {}
        return Scheduled(promise: promise) { [weak self] in
            self?.shared.withLock { $0.timers.removeAll { $0.id == id } }
        }
    }

    @discardableResult
    func scheduleTask<T>(in delay: TimeAmount, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
        scheduleTask(deadline: .now() + delay, task)
    }

    /// Stops the loop once the tasks it has are done: its timers are cancelled, its ring closed (the kernel
    /// cancels what is in it), and `callback` called on `queue`.
    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable (Error?) -> Void) {
        let done: @Sendable () -> Void = { queue.async { callback(nil) } }
        let inLoop = inEventLoop
        let finished = shared.withLock { shared -> Bool in
            guard !shared.finished else { return true }
            shared.stopped.append(done)
            if !shared.stopping, !inLoop { connection_ring_wake(wake) }
            shared.stopping = true
            return false
        }
        if finished { done() }
    }

    // MARK: - The loop's thread

    private func run() {
        while true {
            let (tasks, due, stopping) = takeWork()
            for timer in due { timer.run() }
            for task in tasks { task() }
            guard !stopping, let ring = confined.ring else { return stop() }
            if !confined.wakeQueued { queueWakeRead() }
            // Tasks queued meanwhile, here or by another thread that saw the loop awake, run first; without the
            // eventfd's read in the ring, another thread's task could not wake it.
            let sleep = confined.wakeQueued ? nextSleep() : 0
            let failed = connection_ring_wait(ring, Self.batch, Self.batchWaitMicroseconds, sleep)
            reap(ring)
            if failed < 0 {
                confined.onFailure(failed)
                usleep(10_000)
            }
        }
    }

    /// The tasks to run now, the timers due (in deadline order), and whether the loop stops.
    private func takeWork() -> ([@Sendable () -> Void], [Timer], Bool) {
        let now = NIODeadline.now()
        return shared.withLock { shared in
            var tasks: [@Sendable () -> Void] = []
            swap(&tasks, &shared.tasks)
            shared.woken = false
            var due: [Timer] = []
            shared.timers.removeAll { timer in
                guard timer.deadline <= now else { return false }
                due.append(timer)
                return true
            }
            due.sort { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            return (tasks, due, shared.stopping)
        }
    }

    /// How long the loop may sleep (nanoseconds, -1 without limit): not at all with tasks queued, else until the
    /// next timer.
    private func nextSleep() -> Int64 {
        let now = NIODeadline.now()
        return shared.withLock { shared in
            guard shared.tasks.isEmpty, !shared.stopping else { return 0 }
            return shared.timers.lazy.map(\.deadline).min().map { max(1, ($0 - now).nanoseconds) } ?? -1
        }
    }

    private func reap(_ ring: OpaquePointer) {
        while true {
            let count = Int(connection_ring_reap(ring, confined.tags, confined.results, UInt32(Self.reapCount)))
            guard count > 0 else { return }
            for index in 0..<count {
                let tag = confined.tags[index]
                if tag == 0 { confined.wakeQueued = false } else { confined.onCompletion(tag, confined.results[index]) }
            }
        }
    }

    private func queueWakeRead() {
        guard let ring = confined.ring else { return }
        confined.wakeQueued = connection_ring_read(ring, wake, confined.wakeBuffer, 8, 0) == 0
    }

    private func stop() {
        confined.ring.map(connection_ring_destroy)
        confined.ring = nil
        // They hold what holds the loop.
        confined.onCompletion = { _, _ in }
        confined.onFailure = { _ in }
        let (timers, stopped) = shared.withLock { shared in
            Glibc.close(wake)
            defer { shared.timers = []; shared.stopped = []; shared.finished = true }
            return (shared.timers, shared.stopped)
        }
        for timer in timers { timer.cancel() }
        for callback in stopped { callback() }
    }
}
