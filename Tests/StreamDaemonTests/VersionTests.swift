import Foundation
import Testing

/// `--version` on both binaries prints the one version the package defines.
@Suite struct VersionTests {
    static func version(of binary: String) throws -> (status: Int32, output: String) {
        let result = try ToolProcess.run(DaemonHarness.binary(binary).path, ["--version"],
                                         folder: FileManager.default.temporaryDirectory, name: "version-\(binary)")
        return (result.status, String(decoding: result.output, as: UTF8.self))
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
