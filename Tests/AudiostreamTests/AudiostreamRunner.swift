import FixtureSupport
import Foundation

/// Runs the built `audiostream` binary, as users and other tools do.
struct AudiostreamRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String

        var lines: [Substring] { standardOutput.split(separator: "\n") }

        /// Standard output as one JSON object.
        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(standardOutput.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// The binary beside the test bundle in the build folder.
    static let executable: URL = {
        let folder = Bundle.main.bundleURL
        let candidate = folder.appendingPathComponent("audiostream")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return folder.deletingLastPathComponent().appendingPathComponent("audiostream")
    }()

    static let fixtures = Fixtures.directory

    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    /// Expected `offset,size` rows recorded by the fixture script.
    static func expectedPackets(_ stem: String) -> [String] {
        let url = fixtures.appendingPathComponent("expected/\(stem).packets.csv")
        return try! String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
    }

    /// Runs the binary (in `directory`, else this process's) and returns its raw standard output, for binary
    /// output such as PCM.
    static func runBinary(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    static func run(_ arguments: [String], standardInput: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let input = Pipe()
        if standardInput != nil { process.standardInput = input }
        try process.run()
        if let standardInput {
            input.fileHandleForWriting.write(standardInput)
            try input.fileHandleForWriting.close()
        }
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}
