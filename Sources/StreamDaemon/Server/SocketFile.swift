import AudioStreamProtocol
import Foundation

/// The file of a listening Unix socket: made ready before binding, given its owner and mode, removed on exit.
///
/// A socket is bound under a temporary name beside its path and renamed into place once it listens with its
/// final mode and owner, so a client that finds the path can connect at once, and only as permitted.
enum SocketFile {
    /// The longest socket path: `sun_path` holds 108 bytes with the terminating zero, and the temporary name
    /// is a few bytes longer than the path.
    static let maximumPathLength = 107 - temporarySuffix.utf8.count - 1

    private static let temporarySuffix = ".new"

    /// Where the socket for `path` is bound before it is published: a hidden name in the same folder, so the
    /// rename is atomic.
    static func temporaryPath(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = "." + (path as NSString).lastPathComponent + temporarySuffix
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Creates the socket's folder, removes a stale socket left by a crash and any stale temporary name.
    /// - Throws: `SocketFileError` when the path holds something else, or a socket a live process answers on.
    static func prepare(_ path: String) throws {
        makeFolders((path as NSString).deletingLastPathComponent)
        unlink(temporaryPath(for: path))
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SocketFileError(path: path, problem: "exists and is not a socket; not touching it")
        }
        // Only a refused connection proves nobody listens: a full backlog or a permission error does not.
        do {
            _ = try WireClient(path: path)
        } catch let error as WireClientError where error.code == ECONNREFUSED {
            unlink(path)
            return
        } catch {
            throw SocketFileError(path: path, problem: "cannot be probed (\(error)); not replacing it")
        }
        throw SocketFileError(path: path, problem: "is in use by another running process")
    }

    /// Makes `folder` and its missing parents, each `SocketConfig.folderMode` whatever the umask. A folder it
    /// cannot make is left for the bind to report.
    private static func makeFolders(_ folder: String) {
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", access(path, F_OK) != 0 {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where mkdir(path, mode_t(SocketConfig.folderMode)) == 0 {
            chmod(path, mode_t(SocketConfig.folderMode))
        }
    }

    /// Gives the socket bound at `temporaryPath(for: socket.path)` its mode and owner, then moves it to its path.
    /// - Throws: `SocketFileError`, having removed the temporary name.
    static func publish(_ socket: SocketConfig) throws {
        let temporary = temporaryPath(for: socket.path)
        do {
            try applyOwnership(socket, at: temporary)
            guard rename(temporary, socket.path) == 0 else {
                throw SocketFileError(path: socket.path, problem: "cannot be put in place: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Sets the permission bits (`SocketConfig.defaultMode` unless configured), owner and group of the socket file
    /// at `path` (by default, the socket's own path) as `socket` configures them; an unset owner or group is left
    /// as it is.
    /// - Throws: `SocketFileError` when chmod or chown fails, or the user or group does not exist.
    static func applyOwnership(_ socket: SocketConfig, at path: String? = nil) throws {
        let path = path ?? socket.path
        if chmod(path, mode_t(socket.mode ?? SocketConfig.defaultMode)) != 0 {
            throw SocketFileError(path: socket.path, problem: "chmod failed: \(String(cString: strerror(errno)))")
        }
        guard socket.owner != nil || socket.group != nil else { return }
        var owner = uid_t(bitPattern: -1)
        var group = gid_t(bitPattern: -1)
        if let name = socket.owner {
            guard let entry = getpwnam(name) else { throw SocketFileError(path: socket.path, problem: "no user \(name)") }
            owner = entry.pointee.pw_uid
        }
        if let name = socket.group {
            guard let entry = getgrnam(name) else { throw SocketFileError(path: socket.path, problem: "no group \(name)") }
            group = entry.pointee.gr_gid
        }
        if chown(path, owner, group) != 0 {
            throw SocketFileError(path: socket.path, problem: "chown failed: \(String(cString: strerror(errno)))")
        }
    }

    static func remove(_ path: String) {
        unlink(path)
    }
}

/// A socket path the daemon cannot use.
struct SocketFileError: Error, CustomStringConvertible {
    let path: String
    let problem: String

    var description: String { "\(path) \(problem)" }
}
