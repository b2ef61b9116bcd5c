import Foundation

/// `audiostream-fetch` running on one URL, its standard output a pipe to this process. The helper lives beside
/// this executable: it links the daemon's HTTP source (NIO, TLS), which this binary then need not.
final class FetchProcess {
    /// The read end of the helper's standard output; the caller closes it.
    let output: Int32
    private let pid: pid_t
    /// The wait status, once the helper has been waited for.
    private var status: Int32?

    static let name = "audiostream-fetch"

    /// Starts the helper on `url`.
    /// - Throws: `CommandFailure` when the helper is missing or cannot start.
    init(url: String) throws {
        let path = try Self.path()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CommandFailure.system("cannot make a pipe") }
        Self.keepDescriptorsFromChildren()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup(url)]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, nil, arguments + [nil], environ)
        close(ends[1])
        guard result == 0 else {
            close(ends[0])
            let reason = String(cString: strerror(result))
            throw CommandFailure("\(url): cannot run \(path) (\(reason)), which reads URLs for audiostream: "
                + "install it beside audiostream")
        }
        self.pid = pid
        output = ends[0]
    }

    /// Marks every descriptor but the standard three close-on-exec. The helper then holds only the pipe, as its
    /// standard output, and no descriptor this process inherited: one kept open there (a pipe its parent waits on)
    /// would outlast this process.
    private static func keepDescriptorsFromChildren() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let descriptor = Int32(name), descriptor > STDERR_FILENO { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
    }

    /// The helper beside this executable.
    private static func path() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw CommandFailure.system("cannot find audiostream's own folder") }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return executable[...(executable.lastIndex(of: "/") ?? executable.startIndex)] + name
    }

    /// Waits for the helper to end.
    /// - Returns: nil when it exited with status 0, otherwise how it ended.
    func wait() -> String? {
        if status == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            self.status = status
        }
        // The wait status: a signal number in the low 7 bits, or 0 and the exit status in the next 8.
        let status = status!
        let signal = status & 0x7f
        if signal != 0 { return "\(Self.name) ended by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "\(Self.name) ended with status \(code)"
    }

    /// Ends the helper if it still runs (the command failed or its reader left) and waits for it.
    func stop() {
        if status == nil { kill(pid, SIGKILL) }
        _ = wait()
    }
}
