import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C as a request to stop reading rather than the end of the process, for commands that must finish what
/// they write (`record`). Once installed, a read waiting for input returns at Ctrl-C (no SA_RESTART), and the
/// readers end their input there.
enum Interrupt {
    private static let received = Atomic<Bool>(false)

    /// Whether Ctrl-C came.
    static var requested: Bool { received.load(ordering: .relaxed) }

    static func install() {
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
