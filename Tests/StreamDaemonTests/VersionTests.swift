import Foundation
import Testing

/// `--version` on both binaries prints the one version the package defines.
@Suite struct VersionTests {
    static func version(of binary: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = DaemonHarness.binary(binary)
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func bothBinariesPrintTheSameVersion() throws {
        let tool = try Self.version(of: "audiostream")
        let daemon = try Self.version(of: "audiostreamd")
        #expect(tool.status == 0 && daemon.status == 0)
        #expect(tool.output == daemon.output)
        // Semantic versioning's MAJOR.MINOR.PATCH, alone on its line.
        #expect(tool.output.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil)
    }
}
