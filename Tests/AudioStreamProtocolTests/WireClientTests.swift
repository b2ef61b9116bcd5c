import AudioStreamProtocol
import Foundation
import Testing

/// The blocking client the CLI and the tests use.
@Suite struct WireClientTests {
    /// A connection that fails closes its socket once. A second close finds the number closed (EBADF) here; in a
    /// process with other threads it closes whatever one of them opened under that number meanwhile, as a test
    /// runner's spawned tool then found its output file gone ("Bad file descriptor").
    @Test(arguments: ["/nonexistent/radio.sock", String(repeating: "x", count: 200)])
    func aFailedConnectionClosesItsSocketOnce(path: String) {
        errno = 0
        let connected = (try? WireClient(path: path)) != nil
        let code = errno
        #expect(!connected)
        #expect(code != EBADF, "the socket was closed twice")
    }
}
