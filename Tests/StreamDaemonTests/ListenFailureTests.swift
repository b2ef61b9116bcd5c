import Foundation
@testable import StreamDaemon
import Testing

/// A port already taken is told in a sentence an operator reads, naming the address, for the HTTP server as for the
/// metrics: not the system call's dump (`bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`).
@Suite struct ListenFailureTests {
    @Test func aPortInUseIsToldPlainly() throws {
        let port = try FreePort.pick()
        let taken = try ListeningDescriptor.open(try .makeAddressResolvingHost("127.0.0.1", port: Int(port)))
        defer { close(taken) }
        let expected = "cannot listen on 127.0.0.1:\(port): address already in use"
        let http = try DaemonHarness(config: """
            http: {listen: "127.0.0.1:\(port)"}
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """)
        #expect(try http.waitForExit() != 0)
        #expect(http.log.contains("cannot start: \(expected)"), "\(http.log)")
        let metrics = try DaemonHarness(config: """
            metrics: 127.0.0.1:\(port)
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """)
        try metrics.waitUntil("the metrics' failure") { metrics.log.contains(expected) }
        for log in [http.log, metrics.log] { #expect(!log.contains("errno"), "\(log)") }
    }
}
