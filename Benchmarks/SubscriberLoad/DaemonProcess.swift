import Foundation

/// audiostreamd started for one run: one `stdin` stream, its configuration in `folder`, its standard input a
/// pipe that the pacer writes to, served over HTTP at `/bench` when given a port, with the `writeInterval` given
/// or else the daemon's default. Its log goes to
/// `folder/audiostreamd.log`.
final class DaemonProcess {
    let streamSocket: String
    let controlSocket: String
    private let process = Process()
    private let input = Pipe()

    init(executable: String, folder: String, httpPort: Int? = nil, writeInterval: Double? = nil) throws {
        streamSocket = folder + "/bench.sock"
        controlSocket = folder + "/control.sock"
        let config = folder + "/config.yaml"
        let logPath = folder + "/audiostreamd.log"
        // Listeners connect before the first byte is fed: they wait for the stream's format as long as the
        // connecting takes.
        let http = httpPort.map { "http: {listen: \"127.0.0.1:\($0)\", formatWait: 600}\n" } ?? ""
        let interval = writeInterval.map { "\n    writeInterval: \($0)" } ?? ""
        try """
        # Written by SubscriberLoad: one stream read from standard input, default subscriber limits.
        control: \(controlSocket)
        \(http)streams:
          - name: bench
            source: stdin
            socket: \(streamSocket)\(interval)

        """.write(toFile: config, atomically: true, encoding: .utf8)
        guard FileManager.default.createFile(atPath: logPath, contents: nil),
              let log = FileHandle(forWritingAtPath: logPath)
        else { throw LoadError("cannot create \(logPath)") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--config", config, "--log-level", "warning"]
        process.standardInput = input
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Stops a daemon still running, so that none outlives a failed run.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// The write end of the daemon's standard input.
    var inputDescriptor: Int32 { input.fileHandleForWriting.fileDescriptor }

    /// Ends the daemon's input: its stream ends and, the only one, takes the daemon with it.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Waits up to `timeout` seconds for the daemon to exit, then terminates it.
    /// - Returns: its exit status, or nil when it had to be terminated.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }
}
