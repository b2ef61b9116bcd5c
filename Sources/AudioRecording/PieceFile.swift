#if canImport(Glibc)
import Glibc
#endif
import AudioFileWriting

/// A piece's file while it is written: `NAME.part`, renamed to `NAME` once complete, so that a name without
/// `.part` is always a whole file.
public struct PieceFile {
    /// The name the file takes when complete.
    public let path: String
    public var target: FileTarget
    /// The folders made for the file, outermost first, which `discard` removes.
    private let madeFolders: [String]

    static let partSuffix = ".part"

    /// Creates `path.part`, and the folders it needs.
    public init(path: String) throws {
        madeFolders = try Self.makeFolders(for: path)
        self.path = path
        do {
            target = try FileTarget(creating: path + Self.partSuffix)
        } catch {
            Self.remove(madeFolders)
            throw error
        }
        OpenPieces.insert(path)
    }

    /// Puts the file's bytes on the disk and gives it its name; a name already taken gets `-2`, `-3` … before its
    /// extension rather than losing the older file.
    /// - Returns: the path the file now has.
    /// With `replacing`, the file takes its name whatever was there, in one rename: a file replaced is
    /// whole before and after.
    @discardableResult
    public mutating func complete(replacing: Bool = false) throws -> String {
        defer { OpenPieces.remove(path) }
        try target.synchronize()
        target.close()
        let final = replacing ? path : Self.freeName(for: path)
        guard rename(target.path, final) == 0 else {
            throw WriteError.system(operation: "rename", path: target.path, errno: errno)
        }
        return final
    }

    /// Closes the file as it is, `.part` and all, for the next start to repair.
    func abandon() {
        OpenPieces.remove(path)
        target.close()
    }

    /// Closes and removes the file, and the folders made for it: what was written is not wanted.
    public func discard() {
        abandon()
        unlink(target.path)
        Self.remove(madeFolders)
    }

    /// Removes `folders`, the innermost first; one that something else has filled meanwhile stays.
    private static func remove(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }

    static func freeName(for path: String) -> String {
        guard access(path, F_OK) == 0 else { return path }
        let slash = path.lastIndex(of: "/")
        let dot = path.lastIndex(of: ".").flatMap { dot in slash.map { $0 < dot } ?? true ? dot : nil }
        let stem = dot.map { String(path[..<$0]) } ?? path
        let suffix = dot.map { String(path[$0...]) } ?? ""
        var number = 2
        while access("\(stem)-\(number)\(suffix)", F_OK) == 0 { number += 1 }
        return "\(stem)-\(number)\(suffix)"
    }

    /// Creates the folders above `path` that are missing.
    /// - Returns: those it made, outermost first.
    static func makeFolders(for path: String) throws -> [String] {
        var folder = ""
        var made: [String] = []
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() {
            folder += index == 0 ? String(component) : "/" + component
            guard !folder.isEmpty else { continue }
            if mkdir(folder, 0o755) == 0 {
                made.append(folder)
            } else if errno != EEXIST {
                let failure = WriteError.system(operation: "create the folder", path: folder, errno: errno)
                remove(made)
                throw failure
            }
        }
        return made
    }
}
