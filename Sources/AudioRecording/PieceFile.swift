#if canImport(Glibc)
import Glibc
#endif
import AudioFileWriting

/// A piece's file while it is written: `NAME.part`, renamed to `NAME` once complete, so that a name without
/// `.part` is always a whole file. Every file a recording or a command writes goes through it.
///
/// A folder others can write may hold names planted to lead the bytes elsewhere: the part is always a new file
/// (never opened through a symbolic link), and a complete file replaces nothing but a regular file.
public struct PieceFile {
    /// The name the file takes when complete; `-` for standard output.
    public let path: String
    public var target: FileTarget
    /// The folders made for the file, outermost first, which `discard` removes.
    private let madeFolders: [String]
    /// Whether the file goes to standard output once complete.
    private let isStandardOutput: Bool

    static let partSuffix = ".part"

    /// Creates `path.part`, and the folders it needs. A part an earlier run left is replaced when it is a regular
    /// file.
    /// - Throws: `WriteError.notRegularFile` when something else has the part's name; the system's error.
    public init(path: String) throws {
        madeFolders = try Self.makeFolders(for: path)
        self.path = path
        isStandardOutput = false
        let part = path + Self.partSuffix
        do {
            try FileKind.requireReplaceable(part)
            if FileKind(path: part) == .regular, !OpenPieces.contains(path) { unlink(part) }
            target = try FileTarget(creating: part)
        } catch {
            Self.remove(madeFolders)
            throw error
        }
        OpenPieces.insert(path)
    }

    /// A file for standard output. Containers are patched at their end, so it is written to an unnamed
    /// temporary file (in `TMPDIR`, else /tmp) and copied out once complete.
    public static func standardOutput() throws -> PieceFile {
        try PieceFile(temporaryIn: getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
    }

    private init(temporaryIn folder: String) throws {
        var name = Array("\(folder)/audiostream-XXXXXX".utf8CString)
        let descriptor = mkstemp(&name)
        guard descriptor >= 0 else {
            throw WriteError.system(operation: "create a temporary file in", path: folder, errno: errno)
        }
        // Unnamed at once: nothing is left behind, whatever ends the command.
        unlink(name)
        path = "-"
        target = FileTarget(descriptor: descriptor, path: "standard output")
        madeFolders = []
        isStandardOutput = true
    }

    /// Puts the file's bytes on the disk and gives it its name; a name already taken gets `-2`, `-3` … before its
    /// extension rather than losing the older file.
    /// - Returns: the path the file now has.
    /// With `replacing`, the file takes its name whatever was there, in one rename: a file replaced is
    /// whole before and after.
    @discardableResult
    public mutating func complete(replacing: Bool = false) throws -> String {
        if isStandardOutput {
            defer { target.close() }
            try target.copy(to: STDOUT_FILENO, named: "standard output")
            return path
        }
        defer { OpenPieces.remove(path) }
        try target.synchronize()
        target.close()
        let final = replacing ? path : Self.freeName(for: path)
        try FileKind.requireReplaceable(final)
        guard rename(target.path, final) == 0 else {
            throw WriteError.system(operation: "rename", path: target.path, errno: errno)
        }
        return final
    }

    /// Closes the file as it is, `.part` and all, for the next start to repair; a part that holds nothing (a
    /// disk full from the start) goes, rather than one more empty part at each try.
    func abandon() {
        OpenPieces.remove(path)
        target.close()
        if target.storedSize == 0, !isStandardOutput {
            unlink(target.path)
            Self.remove(madeFolders)
        }
    }

    /// Closes and removes the file, and the folders made for it: what was written is not wanted.
    public func discard() {
        OpenPieces.remove(path)
        target.close()
        guard !isStandardOutput else { return }
        unlink(target.path)
        Self.remove(madeFolders)
    }

    /// Removes `folders`, the innermost first; one that something else has filled meanwhile stays.
    private static func remove(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }

    /// `path`, or the first of `-2`, `-3` … before its extension that nothing has (a dangling symbolic link
    /// has its name).
    static func freeName(for path: String) -> String {
        guard FileKind(path: path) != .absent else { return path }
        let slash = path.lastIndex(of: "/")
        let dot = path.lastIndex(of: ".").flatMap { dot in slash.map { $0 < dot } ?? true ? dot : nil }
        let stem = dot.map { String(path[..<$0]) } ?? path
        let suffix = dot.map { String(path[$0...]) } ?? ""
        var number = 2
        while FileKind(path: "\(stem)-\(number)\(suffix)") != .absent { number += 1 }
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
