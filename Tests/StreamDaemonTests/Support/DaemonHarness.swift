import AudioStreamProtocol
import Foundation
import StreamDaemon

/// A real `audiostreamd` process on a configuration written into a fresh folder, as operators run it.
final class DaemonHarness {
    let folder: URL
    let process = Process()
    private let standardInput = Pipe()
    private let logFile: URL

    /// One stream, `radio`, reading the daemon's standard input, and a control socket.
    static let standardInputConfig = """
        control: control.sock
        streams:
          - name: radio
            source: stdin
            socket: radio.sock
        """

    /// The built binaries beside the test bundle.
    static func binary(_ name: String) -> URL {
        let folder = Bundle.main.bundleURL
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return folder.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// A fresh, short folder (socket paths must stay under 108 bytes).
    static func makeFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("asd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The environment under which a daemon started in `folder` (on `config.yaml`) takes its standard error for
    /// the journal's stream and writes journal lines (`<N>` priorities, no timestamps): the journal names its
    /// stream by device and inode, here those of the file the harness sends standard error to, made now.
    static func journalEnvironment(in folder: URL) -> [String: String] {
        let log = folder.appendingPathComponent("config.yaml.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var status = stat()
        stat(log.path, &status)
        return ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"]
    }

    /// Starts the daemon on `config` (YAML, written to `configName`; relative paths are in the folder).
    /// - Parameters:
    ///   - environment: variables added to the test's own environment.
    ///   - launcher: a program and its arguments that start the daemon, such as `systemd-socket-activate`.
    init(config: String, folder: URL? = nil, configName: String = "config.yaml", arguments: [String] = [],
         environment: [String: String] = [:], launcher: [String] = []) throws {
        self.folder = try folder ?? Self.makeFolder()
        try config.write(to: self.folder.appendingPathComponent(configName), atomically: true, encoding: .utf8)
        logFile = self.folder.appendingPathComponent("\(configName).log")
        // Kept if the test made it: a test may know it by its inode.
        if !FileManager.default.fileExists(atPath: logFile.path) {
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        }
        let daemon = [Self.binary("audiostreamd").path, "--config", self.folder.appendingPathComponent(configName).path]
        let command = launcher + daemon + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = standardInput
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            // SIGKILL if SIGTERM is not heeded in 5 s: the test runner's children may have it blocked, and a
            // daemon stuck in a system call must not hold the test run.
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// What the daemon logged so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Waits until the socket answers connections, or the daemon has exited.
    func waitForSocket(_ name: String, timeout: TimeInterval = 20) throws {
        try waitUntil("\(name) to listen", timeout: timeout) { (try? WireClient(path: path(name))) != nil }
    }

    /// Starts `audiostream subscribe` on stream `name` (socket `NAME.sock`, with `arguments`) once it listens, and
    /// waits until the daemon counts it among the stream's subscribers.
    func subscribe(_ name: String, kinds: String, arguments: [String] = []) throws -> SubscriberProcess {
        try waitForSocket("\(name).sock")
        // The control socket may come up after the stream's: wait until the count can be read.
        var joined = 0
        try waitUntil("the status of \(name)") {
            joined = try subscriberCount(name)
            return true
        }
        let subscriber = try SubscriberProcess(socket: path("\(name).sock"), kinds: kinds, folder: folder,
                                               name: "\(name)-\(joined)", arguments: arguments)
        try waitUntil("the subscriber of \(name) to join") { try subscriberCount(name) > joined }
        return subscriber
    }

    /// Polls `condition` every 20 ms until it holds. An error counts as not yet: the daemon starts its sockets
    /// concurrently, so the control socket may come up after a stream's.
    /// - Throws: `HarnessError.timedOut` after `timeout`, with the last error and the daemon's log.
    func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: Error?
        while true {
            do {
                if try condition() { return }
            } catch {
                lastError = error
            }
            guard Date() < deadline else {
                throw HarnessError.timedOut(what, log: (lastError.map { "last error: \($0)\n" } ?? "") + log)
            }
            usleep(20_000)
        }
    }

    /// Writes bytes to the daemon's standard input.
    func feed(_ data: Data) {
        standardInput.fileHandleForWriting.write(data)
    }

    /// Closes the daemon's standard input: the `stdin` source ends.
    func closeInput() throws {
        try standardInput.fileHandleForWriting.close()
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the daemon to exit and returns its status.
    func waitForExit(timeout: TimeInterval = 20) throws -> Int32 {
        try waitUntil("the daemon to exit", timeout: timeout) { !process.isRunning }
        return process.terminationStatus
    }

    /// The daemon's status answer on the control socket `control`.
    func status(control: String = "control.sock") throws -> [String: Any] {
        let client = try WireClient(path: path(control))
        try client.send(.request, json: .object([("command", .string("status"))]))
        guard case .json(.response, let text) = try client.receive() else { throw HarnessError.noStatus }
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// The status of stream `name`.
    func streamStatus(_ name: String) throws -> [String: Any]? {
        let streams = try status()["streams"] as? [[String: Any]] ?? []
        return streams.first { $0["name"] as? String == name }
    }

    /// Subscribers connected to stream `name`.
    func subscriberCount(_ name: String) throws -> Int {
        (try streamStatus(name)?["subscribers"] as? [Any])?.count ?? 0
    }
}

enum HarnessError: Error, CustomStringConvertible {
    case timedOut(String, log: String)
    case noStatus

    var description: String {
        switch self {
        case .timedOut(let what, let log): "timed out waiting for \(what); daemon log:\n\(log)"
        case .noStatus: "the control socket gave no status"
        }
    }
}
