import Foundation

/// audiostreamd started for one run: the `streams` given, its configuration in `folder`, its standard input a
/// pipe that the pacer writes to (for a `stdin` stream), served over HTTP at `/NAME` when given a port, with the
/// `writeInterval` given or else the daemon's default. Its log goes to `folder/audiostreamd.log`.
final class DaemonProcess {
    let streamSockets: [String]
    let controlSocket: String
    private let process = Process()
    private let input = Pipe()

    /// - Parameters:
    ///   - httpOptions: more keys of `http:`, such as `relayPassword: x`.
    ///   - relay: a `relay:` section's mapping, for a relay of another daemon, whose mounts are its streams.
    init(executable: String, folder: String, streams: [BenchStream], httpPort: Int? = nil,
         writeInterval: Double? = nil, httpOptions: String = "", relay: String? = nil) throws {
        streamSockets = streams.map { $0.socket(in: folder) }
        controlSocket = folder + "/control.sock"
        let config = folder + "/config.yaml"
        let logPath = folder + "/audiostreamd.log"
        // Listeners connect before the first byte is fed: they wait for the stream's format as long as the
        // connecting takes.
        let http = httpPort.map { "http: {listen: \"127.0.0.1:\($0)\", formatWait: 600\(httpOptions)}\n" } ?? ""
        let entries = streams.map { $0.configEntry(folder: folder, writeInterval: writeInterval) }
        try """
        # Written by SubscriberLoad: the run's streams, default subscriber limits.
        control: \(controlSocket)
        \(relay.map { "relay: \($0)\n" } ?? "")\(http)\(entries.isEmpty ? "streams: []" : "streams:\n" + entries.joined())
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

    /// Ends the daemon's input: its `stdin` stream ends and, when it is the only one, takes the daemon with it.
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
