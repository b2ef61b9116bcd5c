import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C as a request to stop reading rather than the end of the process, for commands that must finish what
/// they write (`record`). Once installed, a reader waiting for input (`waitForInput`) stops at Ctrl-C, and ends
/// its input there.
enum Interrupt {
    private static let received = Atomic<Bool>(false)
    private static let installed = Atomic<Bool>(false)

    /// Whether Ctrl-C came.
    static var requested: Bool { received.load(ordering: .relaxed) }

    /// Waits until `descriptor` has input, or Ctrl-C came: false then. A Ctrl-C that comes just before a read
    /// would not interrupt it, so once installed the wait looks again every 100 ms.
    static func waitForInput(on descriptor: Int32) -> Bool {
        guard installed.load(ordering: .relaxed) else { return true }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !requested {
            if poll(&waiting, 1, 100) != 0 { return !requested }
        }
        return false
    }

    static func install() {
        installed.store(true, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupt.received.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have left it blocked (a test runner does): Ctrl-C is wanted here.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
    }
}
