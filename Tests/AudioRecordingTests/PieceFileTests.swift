@testable import AudioRecording
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// A piece's file in a folder others may write: a stale part is replaced only when it is a regular file, and a
/// complete piece never replaces a link or a node planted at its name.
@Suite struct PieceFileTests {
    @Test func aStaleRegularPartIsReplaced() throws {
        let folder = try makeTemporaryFolder("piece-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("piece.mp3").path
        try Data("stale".utf8).write(to: URL(fileURLWithPath: path + ".part"))
        var file = try PieceFile(path: path)
        try file.target.append([1, 2, 3])
        #expect(try file.complete() == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
    }

    @Test func aNameTakenByALinkGoesToTheNextFreeName() throws {
        let folder = try makeTemporaryFolder("piece-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("piece.mp3").path
        // A link to nothing: access(2) calls the name free, rename(2) would replace the link.
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.appendingPathComponent("x").path)
        var file = try PieceFile(path: path)
        try file.target.append([1])
        let completed = try file.complete()
        #expect(completed == folder.appendingPathComponent("piece-2.mp3").path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path).hasSuffix("/x"))
    }

    @Test func aPlantedPartLinkIsRefused() throws {
        let folder = try makeTemporaryFolder("piece-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("piece.mp3").path
        let victim = folder.appendingPathComponent("victim").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path + ".part", withDestinationPath: victim)
        #expect(throws: WriteError.notRegularFile(path: path + ".part", kind: "a symbolic link")) {
            _ = try PieceFile(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
    }
}
