#if canImport(Glibc)
import Glibc
#endif
import AudioFileWriting
import AudioRecording

/// A folder any web server can serve a stream's HLS from: each file is written under a temporary name and renamed
/// into place whole, and files that left the window are deleted.
///
/// A folder others can write may hold names planted to lead the bytes elsewhere: every file is written as a new
/// one and renamed only over a regular file (`PieceFile`).
public struct HLSFolder: Sendable {
    public let path: String

    /// The folder at `path`, made with the folders above it when the first file is written.
    public init(path: String) {
        self.path = path
    }

    /// Stores a file `change` made, or deletes those it let go.
    /// - Throws: `WriteError` when a file cannot be written.
    public func take(_ change: HLSChange) throws {
        switch change {
        case .initSection(let name, let bytes), .part(let name, let bytes), .segment(let name, let bytes):
            try write(bytes, named: name)
        case .removed(let names):
            for name in names { unlink(path + "/" + name) }
        case .ended:
            break
        }
    }

    /// Writes `bytes` as the file `name` in the folder, replacing the one there.
    /// - Throws: `WriteError` when the file cannot be written.
    public func write(_ bytes: [UInt8], named name: String) throws {
        var file = try PieceFile(path: path + "/" + name)
        do {
            try file.target.append(bytes)
            try file.complete(replacing: true)
        } catch {
            file.discard()
            throw error
        }
    }
}
