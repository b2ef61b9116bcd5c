import FixtureSupport
import Foundation
import Testing

/// `-` names standard output for every command that writes, and a reader that goes away (`| head`) ends a command
/// quietly with status 0.
@Suite struct StandardOutputTests {
    typealias Runner = AudiostreamRunner

    static let mp3 = Runner.fixture("l3-vbr-v2.mp3")

    static var mpg123S16Md5: String? {
        let url = Runner.fixtures.appendingPathComponent("expected/l3-vbr-v2.json")
        let facts = (try? JSONSerialization.jsonObject(with: Data(contentsOf: url))) as? [String: Any]
        return facts?["mpg123S16Md5"] as? String
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    @Test func decodeToDashWritesTheWAVOnStandardOutput() throws {
        let result = try Runner.runBinary(["decode", "-o", "-", Self.mp3])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: "-"))
        let wav = [UInt8](result.output)
        try #require(wav.count > 44)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[36..<40]) == Array("data".utf8))
        // A pipe cannot be rewound: the sizes say unknown, as ffmpeg writes them to a pipe.
        #expect(Self.uint32(wav, at: 4) == 0xFFFF_FFFF && Self.uint32(wav, at: 40) == 0xFFFF_FFFF)
        #expect(try md5(Array(wav[44...])) == Self.mpg123S16Md5)
    }

    @Test func decodeToARedirectedStandardOutputFillsInTheSizes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stdout-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: path) }
        _ = FileManager.default.createFile(atPath: path.path, contents: nil)
        let process = Process()
        process.executableURL = Runner.executable
        process.arguments = ["decode", "-o", "-", Self.mp3]
        process.standardOutput = try FileHandle(forWritingTo: path)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let wav = [UInt8](try Data(contentsOf: path))
        try #require(wav.count > 44)
        #expect(Self.uint32(wav, at: 4) == wav.count - 8 && Self.uint32(wav, at: 40) == wav.count - 44)
        #expect(try md5(Array(wav[44...])) == Self.mpg123S16Md5)
    }

    @Test func rawDecodeGoesToDashOrAFile() throws {
        let dash = try Runner.runBinary(["decode", "--raw", "-o", "-", Self.mp3])
        #expect(dash.status == 0)
        #expect(try md5(Array(dash.output)) == Self.mpg123S16Md5)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(getpid()).pcm")
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(try Runner.run(["decode", "--raw", "-o", path.path, Self.mp3]).status == 0)
        #expect(try md5([UInt8](Data(contentsOf: path))) == Self.mpg123S16Md5)
    }

    @Test func tagsArtworkToDashPutsThePictureOnStandardOutput() throws {
        let file = Runner.fixture("tags-id3v24.mp3")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("art-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(try Runner.run(["tags", "--artwork", path.path, file]).status == 0)
        let dash = try Runner.runBinary(["tags", "--artwork", "-", file])
        #expect(dash.status == 0)
        #expect(dash.output == (try Data(contentsOf: path)))
    }

    /// Runs `audiostream ARGUMENTS -` through bash with `copies` of `input` on standard input and its standard
    /// output piped to `reader`; returns the command's status (not the pipeline's) and its standard error.
    static func piped(_ arguments: [String], input: String, copies: Int, to reader: String) throws
        -> (status: Int32, errors: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let command = ([Runner.executable.path] + arguments + ["-"]).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = [
            // The feeder's complaints are not the command's: a test runner ignoring SIGPIPE leaves cat a write
            // error when the command stops reading.
            "-c", "for i in $(seq \(copies)); do cat '\(input)'; done 2>/dev/null | \(command) | \(reader); "
                + "exit ${PIPESTATUS[1]}",
        ]
        let error = Pipe()
        process.standardError = error
        try process.run()
        let errors = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }

    /// Each command's output is far over a pipe's 64 KiB, so a reader that takes one byte and leaves (`head -c 1`)
    /// makes the command write to a closed pipe.
    @Test(arguments: [
        (["packets"], "conformance/l3-test45.bit", 20),
        (["events"], "conformance/l3-test45.bit", 5),
        (["decode", "--raw"], "l3-vbr-v2.mp3", 1),
        (["decode", "-o", "-"], "l3-vbr-v2.mp3", 1),
    ])
    func aClosedPipeEndsTheCommandQuietly(arguments: [String], input: String, copies: Int) throws {
        let file = Runner.fixture(input)
        let counted = try Self.piped(arguments, input: file, copies: copies, to: "wc -c >&2")
        try #require(counted.status == 0 && Int(counted.errors.trimmingCharacters(in: .whitespacesAndNewlines))! > 128 << 10)
        let closed = try Self.piped(arguments, input: file, copies: copies, to: "head -c 1 >/dev/null")
        #expect(closed.status == 0)
        #expect(closed.errors.isEmpty)
    }
}
