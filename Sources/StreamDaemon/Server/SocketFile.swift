import Foundation

/// The file of a listening Unix socket: made ready before binding, given its owner and mode, removed on exit.
enum SocketFile {
    /// Creates the socket's folder and removes a stale socket left by a crash.
    /// - Throws: `SocketFileError` when the path holds something else, or a socket a live process answers on.
    static func prepare(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
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

    /// Sets the socket's permission bits, owner and group as configured.
    static func applyOwnership(_ socket: SocketConfig) throws {
        if let mode = socket.mode, chmod(socket.path, mode_t(mode)) != 0 {
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
        if chown(socket.path, owner, group) != 0 {
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
