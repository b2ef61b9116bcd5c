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

    static let partSuffix = ".part"

    /// Creates `path.part`, and the folders it needs.
    public init(path: String) throws {
        try Self.makeFolders(for: path)
        self.path = path
        target = try FileTarget(creating: path + Self.partSuffix)
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

    /// Closes and removes the file: what was written is not wanted.
    public func discard() {
        abandon()
        unlink(target.path)
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
    static func makeFolders(for path: String) throws {
        var folder = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() {
            folder += index == 0 ? String(component) : "/" + component
            guard !folder.isEmpty, mkdir(folder, 0o755) != 0, errno != EEXIST else { continue }
            throw WriteError.system(operation: "create the folder", path: folder, errno: errno)
        }
    }
}
