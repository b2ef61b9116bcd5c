import FixtureSupport
import Foundation
import Testing

extension AudiostreamRunner {
    /// Runs the binary with `arguments`, its standard input a pipe fed 80 KB of record/cbr.mp3 (more than the
    /// tool's 64 KB chunk) and left open, as a live input that has not ended; once `file` exists, sends Ctrl-C.
    /// Gives the tool 20 s to start and 20 s to stop, then kills it.
    static func interrupt(_ arguments: [String], once file: String) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let bytes = try Data(contentsOf: Fixtures.directory.appendingPathComponent("record/cbr.mp3"))
        input.fileHandleForWriting.write(bytes.prefix(80_000))
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: file), Date() < deadline { usleep(20_000) }
        try #require(FileManager.default.fileExists(atPath: file))
        // The tool waits in a read for the rest of its chunk: Ctrl-C ends it there, the pipe still open.
        kill(process.processIdentifier, SIGINT)
        let stopBy = Date().addingTimeInterval(20)
        while process.isRunning, Date() < stopBy { usleep(20_000) }
        #expect(!process.isRunning, "Ctrl-C did not end the tool")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                      standardError: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
