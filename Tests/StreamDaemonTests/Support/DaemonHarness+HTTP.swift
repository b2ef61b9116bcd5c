import Foundation

extension DaemonHarness {
    /// Starts the daemon with a control socket (`control.sock`), an HTTP server on a free port of 127.0.0.1 and
    /// `streams`, the YAML of the items of its streams list.
    /// - Parameter http: more keys of `http:`, such as `relayPassword: x`.
    /// - Parameter environment: variables added to the daemon's environment.
    /// - Returns: the daemon and its HTTP port.
    static func withHTTP(_ streams: String, http: String = "", folder: URL? = nil,
                         environment: [String: String] = [:]) throws -> (DaemonHarness, UInt16) {
        let port = try FreePort.pick()
        let options = http.isEmpty ? "" : ", " + http
        let config = "control: control.sock\nhttp: {listen: \"127.0.0.1:\(port)\"\(options)}\nstreams:\n"
            + streams.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        return (try DaemonHarness(config: config, folder: folder, environment: environment), port)
    }

    /// Stream `radio`, the demo MP3 looped at real time, at `/radio.mp3`: an item of `withHTTP`'s streams.
    static let loopedRadio = """
        - name: radio
          source: file:\(HTTPListenerTests.demo.path)
          loop: true
          socket: radio.sock
          mount: /radio.mp3
        """

    /// Starts the daemon with one stream, `radio`, read from standard input and served over HTTP, and waits
    /// until its mount answers.
    static func stdinRadioWithHTTP() throws -> (DaemonHarness, UInt16) {
        let (daemon, port) = try withHTTP("- name: radio\n  source: stdin\n  socket: radio.sock")
        try daemon.waitUntil("the HTTP server") { (try? HTTPListenerTests.mountStatus(port, "radio")) != nil }
        return (daemon, port)
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
