import CSendRing
import Glibc
import Logging
import NIOCore

/// The direct sends of a hub's write-out to its HTTP listeners, made together: io_uring takes them in one system
/// call, where `send(2)` takes one each. Over loopback TCP a write then costs 12 to 15 % less
/// (`Benchmarks/floor_io_uring.c`); over Unix sockets it costs more, so subscribers of the wire protocol send
/// themselves.
///
/// A `SubscriberSocket` queues itself here with the bytes it would have sent, the hub calls `submit()` at the end of
/// the write-out, and each socket is told what its send took: nothing is left queued between write-outs. Where
/// io_uring is refused (an old kernel, a seccomp filter) or fails, `queue` says so and the sockets send themselves.
/// Confined to one event loop, whose hubs share it (`SendRings`): the ring belongs to the thread that opened it.
final class SendRing {
    private enum State {
        case unopened
        case open(OpaquePointer)
        case refused
    }

    private let eventLoop: EventLoop
    private let logger: Logger
    private var state = State.unopened
    /// Appended to for every HTTP listener of a write-out: unchecked for overlapping accesses, which cost more than
    /// the append, as the ring is confined to its loop and nothing it calls comes back to it.
    @exclusivity(unchecked) private var queued: [SubscriberSocket] = []
    private var submission = RingSubmission()

    /// Sends per system call.
    private let entries: UInt32

    /// A ring of `entries` sends per system call, by default enough to spread its cost thin and few enough that a
    /// ring costs little memory (about 30 KiB), opened on first use.
    init(eventLoop: EventLoop, logger: Logger, entries: UInt32 = 256) {
        self.eventLoop = eventLoop
        self.logger = logger
        self.entries = entries
    }

    deinit {
        if case .open(let ring) = state { send_ring_destroy(ring) }
    }

    /// Queues the socket's `queuedSend` to be made at the next `submit()`; false when there is no ring, and the
    /// socket sends itself.
    func queue(_ socket: SubscriberSocket) -> Bool {
        if case .unopened = state { open() }
        guard case .open = state else { return false }
        queued.append(socket)
        return true
    }

    /// Makes every queued send, and tells each socket what its send took.
    func submit() {
        guard !queued.isEmpty, case .open(let ring) = state else { return }
        eventLoop.preconditionInEventLoop()
        // Worked on as locals: every use of a property of this class costs an exclusivity check, and this is
        // per socket.
        var queued: [SubscriberSocket] = []
        swap(&queued, &self.queued)
        var submission = RingSubmission()
        swap(&submission, &self.submission)
        for socket in queued {
            // A socket closed since it queued has nothing queued any more, and no descriptor to send to.
            guard let (descriptor, bytes) = socket.queuedSend else { continue }
            submission.add(socket, descriptor: descriptor, bytes: bytes)
        }
        let failed = submission.send(through: ring)
        for (socket, sent) in zip(submission.sockets, submission.results) { socket.sentFromRing(Int(sent)) }
        submission.removeAll()
        swap(&submission, &self.submission)
        // Kept for the next write-out, unless a socket queued meanwhile.
        queued.removeAll(keepingCapacity: true)
        if self.queued.isEmpty { swap(&queued, &self.queued) }
        if failed < 0 { refuse(errno: -failed, after: "a send") }
    }

    private func open() {
        guard IOUring.isAllowed else { return state = .refused }
        guard let ring = send_ring_create(entries) else { return refuse(errno: errno, after: "opening it") }
        state = .open(ring)
    }

    private func refuse(errno: CInt, after step: String) {
        if case .open(let ring) = state { send_ring_destroy(ring) }
        state = .refused
        let reason = String(cString: strerror(errno))
        logger.notice("io_uring failed \(step) (\(reason)): HTTP listeners are sent to with send(2)")
        // Whatever is still queued is handed back unsent, as a failed send is: each socket writes it through NIO.
        let stranded = queued
        queued.removeAll()
        for socket in stranded { socket.sentFromRing(-Int(ECANCELED)) }
    }
}
