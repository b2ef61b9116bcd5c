import FixtureSupport
import Foundation
import Testing

/// Every command that writes a file writes a new regular file and renames it into place, or writes standard
/// output: a name planted in its folder (a symbolic link, a FIFO, a device) never leads its bytes elsewhere or
/// is replaced.
@Suite struct OutputSafetyTests {
    typealias Runner = AudiostreamRunner

    static let mp3 = Runner.fixture("l3-vbr-v2.mp3")

    static func folder() throws -> URL { try makeTemporaryFolder("output-safety") }

    @Test func aPlantedPartLinkIsNotWrittenThrough() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        let output = folder.appendingPathComponent("out.mp3").path
        try FileManager.default.createSymbolicLink(atPath: output + ".part", withDestinationPath: victim.path)
        for arguments in [["cut", Self.mp3, "--to", "1", "-o", output],
                          ["concat", Self.mp3, Self.mp3, "-o", output],
                          ["tags", Self.mp3, "--set", "title=x", "-o", output]] {
            let result = try Runner.run(arguments)
            #expect(result.status != 0, "\(arguments[0])")
            #expect(result.standardError.contains("out.mp3.part is a symbolic link"), "\(result.standardError)")
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me", "\(arguments[0])")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments[0])")
        }
    }

    @Test func aFIFOOrADeviceIsNotReplaced() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.mp3").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let device = folder.appendingPathComponent("null.mp3").path
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
        for (output, kind) in [(fifo, "a FIFO"), (device, "a character device")] {
            for arguments in [["tags", Self.mp3, "--set", "title=x", "-o", output],
                              ["cut", Self.mp3, "--to", "1", "-o", output], ["decode", Self.mp3, "-o", output]] {
                let result = try Runner.run(arguments)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.standardError.contains("is \(kind), not a regular file"), "\(result.standardError)")
            }
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    /// `-` is standard output: the same bytes as the file, and no file named `-`.
    @Test(arguments: [["tags", mp3, "--set", "title=Standard output"], ["cut", mp3, "--from", "0.5", "--to", "1"],
                      ["concat", mp3, mp3]])
    func aDashWritesStandardOutput(_ command: [String]) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file.mp3")
        #expect(try Runner.run(command + ["-o", file.path]).status == 0)
        let (status, output) = try Runner.runBinary(command + ["-o", "-"], in: folder)
        #expect(status == 0)
        let written = try Data(contentsOf: file)
        #expect(output.count > 1000 && output == written)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
    }

    /// `-o INPUT` through a symbolic link edits the file it names; the link stays a link.
    @Test func anOutputThroughALinkReplacesTheFileItNames() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real.mp3").path
        try FileManager.default.copyItem(atPath: Self.mp3, toPath: real)
        let link = folder.appendingPathComponent("link.mp3").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let result = try Runner.run(["tags", link, "--set", "title=Through the link", "-o", link])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        let title = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of",
                                                   "default=nw=1:nk=1", real]).output
        #expect(String(decoding: title, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            == "Through the link")
    }
}
