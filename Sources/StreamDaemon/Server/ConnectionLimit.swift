import Synchronization

/// At most `maximum` connections of one listening socket open at once: one more is refused as soon as it is
/// accepted, so that a crowd of one kind of client never takes the descriptors every other client needs.
final class ConnectionLimit: Sendable {
    let maximum: Int
    /// What a refused connection is sent before it is closed (an HTTP 503, say).
    let refusal: [UInt8]
    private let open = Atomic<Int>(0)

    init(maximum: Int, refusal: [UInt8]) {
        self.maximum = maximum
        self.refusal = refusal
    }

    /// Counts one more connection, unless `maximum` are open: then it returns false, and counts nothing.
    func admit() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < maximum {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// One admitted connection has closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}
