#if canImport(Glibc)
import Glibc
#endif

/// What a name in a folder is, without following a symbolic link: the check before a file is written under it.
public enum FileKind: Equatable, Sendable {
    case absent
    case regular
    case symbolicLink
    /// Anything else, as a person says it ("a FIFO").
    case other(String)

    /// What `path` names; its last component is not followed.
    public init(path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            self = .absent
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFLNK: self = .symbolicLink
        case S_IFDIR: self = .other("a folder")
        case S_IFCHR: self = .other("a character device")
        case S_IFBLK: self = .other("a block device")
        case S_IFIFO: self = .other("a FIFO")
        case S_IFSOCK: self = .other("a socket")
        default: self = .other("not a file")
        }
    }

    /// Throws unless `path` is a regular file or free: what may be replaced by a file.
    /// - Throws: `WriteError.notRegularFile`.
    public static func requireReplaceable(_ path: String) throws {
        switch FileKind(path: path) {
        case .absent, .regular: return
        case .symbolicLink: throw WriteError.notRegularFile(path: path, kind: "a symbolic link")
        case .other(let kind): throw WriteError.notRegularFile(path: path, kind: kind)
        }
    }
}
