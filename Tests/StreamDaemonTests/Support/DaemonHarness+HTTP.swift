import Foundation

extension DaemonHarness {
    /// Starts the daemon with a control socket (`control.sock`), an HTTP server on a free port of 127.0.0.1 and
    /// `streams`, the YAML of the items of its streams list.
    /// - Parameter http: more keys of `http:`, such as `relayPassword: x`.
    /// - Returns: the daemon and its HTTP port.
    static func withHTTP(_ streams: String, http: String = "", folder: URL? = nil) throws -> (DaemonHarness, UInt16) {
        let port = try FreePort.pick()
        let options = http.isEmpty ? "" : ", " + http
        let config = "control: control.sock\nhttp: {listen: \"127.0.0.1:\(port)\"\(options)}\nstreams:\n"
            + streams.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        return (try DaemonHarness(config: config, folder: folder), port)
    }

    /// Waits until the HTTP server listens: it starts after the streams, so their sockets may come first.
    func waitForHTTP() throws {
        try waitUntil("the HTTP server to listen") { log.contains("HTTP on ") }
    }

    /// Waits until stream `name`'s mount serves audio: its format is known.
    func waitForMount(port: UInt16, _ name: String) throws {
        try waitUntil("the mount of \(name) to serve audio") {
            try HTTPListenerTests.mountStatus(port, name)?["contentType"] is String
        }
    }
}
