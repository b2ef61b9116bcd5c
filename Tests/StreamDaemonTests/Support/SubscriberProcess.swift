import Foundation

/// A real `audiostream subscribe` process, its JSON lines kept in a file so a full pipe can never block it.
final class SubscriberProcess {
    let process = Process()
    let linesFile: URL
    let outputFile: URL
    let errorsFile: URL

    /// Starts `audiostream subscribe SOCKET --kinds KINDS -o OUTPUT` and any further arguments.
    init(socket: String, kinds: String, folder: URL, name: String, arguments: [String] = []) throws {
        linesFile = folder.appendingPathComponent("\(name).jsonl")
        outputFile = folder.appendingPathComponent("\(name).out")
        errorsFile = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: linesFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        process.executableURL = DaemonHarness.binary("audiostream")
        process.arguments = ["subscribe", socket, "--kinds", kinds, "--output", outputFile.path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: linesFile)
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Lines printed so far, while it runs.
    var linesSoFar: Int {
        ((try? Data(contentsOf: linesFile)) ?? Data()).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The JSON events printed so far, while it runs.
    var events: [[String: Any]] {
        let text = (try? String(contentsOf: linesFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { DaemonStdinTests.object(String($0)) }
    }

    /// Waits for the process to exit.
    /// - Returns: its exit status, the JSON lines it printed, the bytes it wrote to its output file and what it
    ///   said on stderr.
    func finish() -> (status: Int32, lines: [String], output: Data, errors: String) {
        process.waitUntilExit()
        let text = (try? String(contentsOf: linesFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text.split(separator: "\n").map(String.init),
                (try? Data(contentsOf: outputFile)) ?? Data(), (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "")
    }
}
