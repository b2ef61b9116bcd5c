import Foundation

/// An independent client tool (curl, ffprobe) run against the daemon, its output kept in files so a full pipe
/// never blocks it.
final class ToolProcess {
    let process = Process()
    let outputFile: URL
    let errorsFile: URL

    /// Starts `tool` (a path, or a name found on the PATH) with `arguments`.
    /// - Throws: `IcecastServer.Failure.toolMissing` when the tool is not installed.
    init(_ tool: String, _ arguments: [String], folder: URL, name: String) throws {
        let found = tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : IcecastServer.tool([tool])
        guard let binary = found else { throw IcecastServer.Failure.toolMissing(tool) }
        outputFile = folder.appendingPathComponent("\(name).out")
        errorsFile = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
    }

    deinit {
        stop()
    }

    /// Ends a tool that runs until told (a server, a browser): SIGTERM, SIGKILL if it is still there after
    /// `timeout` (a child of the test runner may have SIGTERM blocked), then waits for it.
    func stop(timeout: TimeInterval = 5) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `tool` to its end.
    /// - Returns: its exit status, standard output and standard error.
    static func run(_ tool: String, _ arguments: [String], folder: URL, name: String) throws
        -> (status: Int32, output: Data, errors: String) {
        try ToolProcess(tool, arguments, folder: folder, name: name).finish()
    }

    /// Waits for the tool to exit.
    func finish() -> (status: Int32, output: Data, errors: String) {
        process.waitUntilExit()
        return (process.terminationStatus, (try? Data(contentsOf: outputFile)) ?? Data(),
                (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "")
    }
}
