import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real Icecast 2 server on 127.0.0.1, fed by real `ffmpeg` source clients, for end-to-end tests of the
/// HTTP/ICY source.
///
/// Everything lives in `folder`: the configuration (`icecast.xml`), Icecast's own output (`icecast.out`), its
/// logs (`icecast-logs/`) and each source's ffmpeg log (`ffmpeg-live.mp3.log`). Icecast refuses to run as root,
/// so when the tests run as root the configuration tells it to change to user `nobody` (and that user's group,
/// `nogroup` on Debian) once it has bound its port, and the log folder is given to that user.
///
/// What Icecast 2.4.4 (Debian 12's `icecast2`) does, as observed with this harness:
/// - A listener gets `HTTP/1.0 200 OK` whatever version it asked with, then `Connection: Close`,
///   `Content-Type: audio/mpeg`, `icy-description`, `icy-genre`, `icy-name` (no space after the colon),
///   `icy-pub:0`, `icy-metadata:1` (always) and, only if it sent `Icy-MetaData: 1`, `icy-metaint:16000` (or
///   `metadataInterval`). There is no `Content-Length`.
/// - There is no burst: a listener's first byte is wherever the source is, usually inside an MPEG frame.
/// - A listener's first metadata block carries the current title (`StreamTitle='';` before any); later blocks
///   are empty (length byte 0) until the title changes. Quotes in titles are not escaped:
///   `StreamTitle='Rock 'n' Roll';`.
/// - When the source goes, its listeners' connections are closed (orderly EOF) within milliseconds, and the mount
///   answers 404.
final class IcecastServer {
    let folder: URL
    /// The port Icecast listens on, on 127.0.0.1 only.
    let port: UInt16
    let sourcePassword: String
    let adminUser = "admin"
    let adminPassword = "admin-" + IcecastServer.randomToken()
    /// Bytes of audio between metadata blocks for listeners that ask for metadata.
    let metadataInterval: Int

    private let server: Process
    private var sources: [String: Process] = [:]
    private let removesFolder: Bool
    private let logsFolder: URL
    private let outputFile: URL

    /// Starts Icecast on a free port of 127.0.0.1 and waits until the port accepts connections.
    /// - Parameters:
    ///   - folder: where the configuration and logs go; a fresh folder under /tmp, removed again by `deinit`, if
    ///     nil. A given folder is left in place; it must be reachable by user `nobody` when running as root.
    ///   - metadataInterval: `icy-metaint` for every mount; Icecast's default (16000) if nil.
    ///   - relaying: XML added to the configuration, such as `<relay>` or `<master-server>` settings.
    ///   - port: the port to listen on, such as a stopped server's; a free one if nil.
    ///   - sourcePassword: a random one if nil.
    ///   - timeout: how long Icecast may take to listen.
    /// - Throws: `Failure.toolMissing` without Icecast, `Failure.exited` or `Failure.timedOut` (with the logs) if
    ///   it does not come up.
    init(folder: URL? = nil, metadataInterval: Int? = nil, relaying: String = "", port fixedPort: UInt16? = nil,
         sourcePassword: String? = nil, timeout: TimeInterval = 20) throws {
        self.sourcePassword = sourcePassword ?? "source-" + IcecastServer.randomToken()
        guard let binary = Self.tool(["icecast2", "icecast"]) else { throw Failure.toolMissing("icecast2") }
        guard let share = Self.shareFolder() else {
            throw Failure.toolMissing("Icecast's web and admin folders (/usr/share/icecast2/{web,admin})")
        }
        removesFolder = folder == nil
        let home = try folder ?? Self.makeFolder()
        let logsFolder = home.appendingPathComponent("icecast-logs")
        let outputFile = home.appendingPathComponent("icecast.out")
        self.folder = home
        self.logsFolder = logsFolder
        self.outputFile = outputFile
        self.metadataInterval = metadataInterval ?? 16000
        try FileManager.default.createDirectory(at: logsFolder, withIntermediateDirectories: true)
        let owner = getuid() == 0 ? try Self.unprivilegedOwner() : nil
        if let owner {
            // Icecast opens its logs after changing to `owner`, which must also be able to reach the folder.
            guard chown(logsFolder.path, owner.uid, owner.gid) == 0 else {
                throw Failure.io("chown \(logsFolder.path) to \(owner.user): \(String(cString: strerror(errno)))")
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: home.path)
            let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o755
            try FileManager.default.setAttributes([.posixPermissions: permissions | 0o011], ofItemAtPath: home.path)
        }

        // The port is free when picked but may be taken before Icecast binds it: then Icecast exits, so try again.
        var attempt = 0
        while true {
            attempt += 1
            let port = try fixedPort ?? FreePort.pick()
            let configFile = home.appendingPathComponent("icecast.xml")
            try Self.config(port: port, sourcePassword: self.sourcePassword, adminUser: adminUser,
                            adminPassword: adminPassword, logs: logsFolder, share: share, owner: owner,
                            metadataInterval: metadataInterval, relaying: relaying)
                .write(to: configFile, atomically: true, encoding: .utf8)
            let process = try Self.launch(binary, arguments: ["-c", configFile.path], output: outputFile)
            let logs = { Self.readLogs(logs: logsFolder, output: outputFile) }
            do {
                try Self.poll("Icecast to listen on 127.0.0.1:\(port)", timeout: timeout, log: logs) {
                    guard process.isRunning else { throw Failure.exited("icecast", log: logs()) }
                    // Icecast's own statistics, not just an open port: a process of another test may have taken
                    // the port between its pick and Icecast's bind, and Icecast then exits.
                    let stats = try? Self.get(port: port, path: "/status-json.xsl", timeout: 1)
                    return process.isRunning && stats?.status == 200
                        && stats.map { String(decoding: $0.body, as: UTF8.self).contains("icestats") } == true
                }
                self.port = port
                server = process
                return
            } catch Failure.exited where attempt < 3 {
                // A fixed port may still be held by the server before: give it a moment.
                if fixedPort != nil { usleep(500_000) }
                continue
            } catch {
                Self.end(process)
                throw error
            }
        }
    }

    deinit {
        stop()
        if removesFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A listener's URL for `mount`.
    func url(mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// The listener URL of the default mount, `http://127.0.0.1:PORT/live.mp3`.
    var url: String { url(mount: "/live.mp3") }

    /// Icecast's error log and its standard output and error.
    var log: String { Self.readLogs(logs: logsFolder, output: outputFile) }

    /// What the ffmpeg feeding `mount` printed (errors only).
    func sourceLog(mount: String = "/live.mp3") -> String {
        (try? Data(contentsOf: sourceLogFile(mount))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    // MARK: Sources

    /// Starts `ffmpeg` sending `file`, looped forever at its own pace and unchanged (`-c copy`), to `mount`, and
    /// waits until Icecast lists the mount.
    ///
    /// ffmpeg writes neither an ID3v2 tag nor a Xing frame at the start. It cannot send a stream title, so `title`
    /// is set through the admin interface (`setTitle`) before this returns.
    /// - Parameters:
    ///   - name: sent as `ice-name`, which Icecast gives listeners as `icy-name`.
    ///   - genre: sent as `ice-genre`, which Icecast gives listeners as `icy-genre`.
    ///   - description: sent as `ice-description`, which Icecast gives listeners as `icy-description`.
    /// - Throws: `Failure.exited` (with ffmpeg's log) if ffmpeg gives up, `Failure.timedOut` if the mount does
    ///   not appear in time.
    func startSource(file: URL, mount: String = "/live.mp3", title: String? = nil, name: String = "Audiostream Test",
                     genre: String = "Testing", description: String = "audiostream end-to-end test",
                     timeout: TimeInterval = 20) throws {
        guard let ffmpeg = Self.tool(["ffmpeg"]) else { throw Failure.toolMissing("ffmpeg") }
        try start(ffmpeg, arguments: [
            "-nostdin", "-hide_banner", "-loglevel", "error",
            "-re", "-stream_loop", "-1", "-i", file.path,
            "-c", "copy", "-id3v2_version", "0", "-write_xing", "0",
            "-content_type", "audio/mpeg", "-ice_name", name, "-ice_genre", genre, "-ice_description", description,
            "-f", "mp3", "icecast://source:\(sourcePassword)@127.0.0.1:\(port)\(mount)",
        ], mount: mount, timeout: timeout)
        if let title { try setTitle(title, mount: mount) }
    }

    /// Sends `file` once, unchanged, as the source of `mount` (an HTTP PUT, which Icecast 2.4 takes from source
    /// clients), spread evenly over `seconds` from a thread of its own, and waits until Icecast lists the mount.
    /// Unlike ffmpeg it sends the bytes as they are, so a chained Ogg file stays chained. The mount goes when the
    /// last byte is sent.
    func startUpload(file: URL, mount: String, contentType: String, seconds: Double,
                     timeout: TimeInterval = 20) throws {
        let bytes = try Data(contentsOf: file)
        let connection = try RawConnection(port: port)
        let credentials = Data("source:\(sourcePassword)".utf8).base64EncodedString()
        connection.send("PUT \(mount) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic \(credentials)\r\n"
            + "Content-Type: \(contentType)\r\nice-name: Upload Test\r\n\r\n")
        let slice = 1024
        Thread {
            for start in stride(from: 0, to: bytes.count, by: slice) {
                connection.send(bytes[start..<min(start + slice, bytes.count)])
                usleep(UInt32(seconds * 1_000_000 * Double(slice) / Double(bytes.count)))
            }
        }.start()
        try Self.poll("the upload to \(mount)", timeout: timeout, log: { self.log }) { try mountStatus(mount) != nil }
    }

    /// Launches a source client for `mount` and waits until Icecast lists the mount.
    private func start(_ tool: URL, arguments: [String], mount: String, timeout: TimeInterval) throws {
        guard mount.hasPrefix("/") else { throw Failure.usage("a mount starts with /: \(mount)") }
        if let running = sources[mount], running.isRunning { throw Failure.usage("\(mount) already has a source") }
        let process = try Self.launch(tool, arguments: arguments, output: sourceLogFile(mount))
        sources[mount] = process
        do {
            try Self.poll("the source on \(mount)", timeout: timeout, log: { self.sourceLog(mount: mount) + self.log }) {
                guard process.isRunning else {
                    throw Failure.exited(tool.lastPathComponent, log: self.sourceLog(mount: mount) + self.log)
                }
                return try mountStatus(mount) != nil
            }
        } catch {
            sources[mount] = nil
            Self.end(process)
            throw error
        }
    }

    /// Stops the ffmpeg feeding `mount` (SIGTERM) and waits until Icecast no longer lists the mount. Its listeners'
    /// connections are closed by then or within milliseconds. Nothing happens if the mount has no source.
    func stopSource(mount: String = "/live.mp3", timeout: TimeInterval = 20) throws {
        guard let process = sources.removeValue(forKey: mount) else { return }
        Self.end(process)
        try Self.poll("\(mount) to go", timeout: timeout, log: { self.log }) { try mountStatus(mount) == nil }
    }

    /// Stops every source and Icecast, and waits for them to exit. Safe to call more than once.
    func stop() {
        for (_, process) in sources { Self.end(process) }
        sources.removeAll()
        Self.end(server)
    }

    // MARK: Metadata and status

    /// Sets the stream title of `mount` through Icecast's admin interface
    /// (`/admin/metadata?mode=updinfo&song=…`, HTTP basic authentication).
    ///
    /// Listeners see it in their next metadata block, at most `metadataInterval` bytes of audio later.
    /// - Parameter charset: how Icecast should read the title. Nil: not at all; the title's UTF-8 bytes go into
    ///   `StreamTitle='…';` unchanged. `"UTF-8"`: Icecast converts it to the mount's charset, ISO-8859-1, and
    ///   writes characters outside Latin-1 as XML character references (`–` becomes `&#8211;`).
    /// - Throws: `Failure.http` unless Icecast answers `Metadata update successful`.
    func setTitle(_ title: String, mount: String = "/live.mp3", charset: String? = nil) throws {
        var query = "mount=\(Self.percentEncoded(mount))&mode=updinfo&song=\(Self.percentEncoded(title))"
        if let charset { query += "&charset=\(Self.percentEncoded(charset))" }
        let credentials = Data("\(adminUser):\(adminPassword)".utf8).base64EncodedString()
        let response = try get("/admin/metadata?\(query)", headers: [("Authorization", "Basic \(credentials)")])
        let body = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200, body.contains("<return>1</return>") else {
            throw Failure.http("setting the title of \(mount): \(response.statusLine)\n\(body)")
        }
    }

    /// Icecast's statistics (`/status-json.xsl`): the `icestats` object.
    func status() throws -> [String: Any] {
        let response = try get("/status-json.xsl")
        guard response.status == 200 else { throw Failure.http("status: \(response.statusLine)") }
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        guard let stats = object?["icestats"] as? [String: Any] else {
            throw Failure.http("status without icestats: \(String(decoding: response.body, as: UTF8.self))")
        }
        return stats
    }

    /// The statistics of `mount` (`listeners`, `server_name`, `title` once set, …), or nil if it has no source.
    func mountStatus(_ mount: String = "/live.mp3") throws -> [String: Any]? {
        let stats = try status()
        // One source is an object, several an array.
        let all = stats["source"] as? [[String: Any]] ?? (stats["source"] as? [String: Any]).map { [$0] } ?? []
        return all.first { $0["listenurl"] as? String == url(mount: mount) }
    }

    // MARK: A raw HTTP client

    /// An HTTP answer as read off the socket.
    struct Response {
        /// `HTTP/1.0 200 OK`.
        let statusLine: String
        let status: Int
        /// In the order sent, names as sent.
        let headers: [(name: String, value: String)]
        /// Everything after the header, at most the `maxBodyBytes` asked for.
        let body: Data
        /// Whether the server closed the connection (rather than the client stopping at `maxBodyBytes` or the
        /// timeout).
        let closedByServer: Bool

        /// The value of the first header called `name`, ignoring case.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// `GET path HTTP/1.0` to this server over a plain blocking socket (independent of the code under test).
    ///
    /// Reads until the server closes the connection, `maxBodyBytes` of body have arrived, or `timeout` has passed;
    /// whatever came by then is the answer. For a stream, pass `maxBodyBytes` (and `("Icy-MetaData", "1")`).
    /// - Throws: `Failure.http` if no complete header arrived.
    func get(_ path: String, headers: [(String, String)] = [], maxBodyBytes: Int = .max,
             timeout: TimeInterval = 5) throws -> Response {
        try Self.get(port: port, path: path, headers: headers, maxBodyBytes: maxBodyBytes, timeout: timeout)
    }

    static func get(port: UInt16, path: String, headers: [(String, String)] = [], maxBodyBytes: Int = .max,
                    timeout: TimeInterval = 5) throws -> Response {
        let descriptor = try FreePort.connect(port: port)
        defer { close(descriptor) }
        var slice = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))

        var request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: audiostream-tests\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let deadline = Date().addingTimeInterval(timeout)
        var bytes = Array(request.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
            if sent > 0 {
                bytes = bytes.dropFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, Date() < deadline {
                continue
            } else {
                throw Failure.http("sending GET \(path): \(String(cString: strerror(errno)))")
            }
        }

        var received = Data()
        var headerEnd: Int?
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            if let headerEnd, received.count - headerEnd >= maxBodyBytes { break }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0 ..< count])
                if headerEnd == nil, let end = received.range(of: Data("\r\n\r\n".utf8)) {
                    headerEnd = end.upperBound - received.startIndex
                }
            } else if count == 0 || errno == ECONNRESET {
                closed = true
                break
            } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                throw Failure.http("reading GET \(path): \(String(cString: strerror(errno)))")
            }
        }
        guard let headerEnd else {
            throw Failure.http("no complete answer header to GET \(path) (\(received.count) bytes"
                + (closed ? ", then the connection closed)" : " in \(timeout) s)"))
        }
        let head = received.prefix(headerEnd - 4)
        let lines = (String(data: head, encoding: .utf8) ?? String(decoding: head, as: Unicode.ASCII.self))
            .components(separatedBy: "\r\n")
        let statusLine = lines.first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = received.dropFirst(headerEnd).prefix(maxBodyBytes)
        return Response(statusLine: statusLine, status: status, headers: fields, body: Data(body), closedByServer: closed)
    }

    enum Failure: Error, CustomStringConvertible {
        case toolMissing(String)
        case timedOut(String, log: String)
        case exited(String, log: String)
        case http(String)
        case io(String)
        case usage(String)

        var description: String {
            switch self {
            case .toolMissing(let what): "not installed: \(what)"
            case .timedOut(let what, let log): "timed out waiting for \(what); log:\n\(log)"
            case .exited(let what, let log): "\(what) exited; log:\n\(log)"
            case .http(let what): "HTTP: \(what)"
            case .io(let what): what
            case .usage(let what): what
            }
        }
    }

    // MARK: Helpers

    private func sourceLogFile(_ mount: String) -> URL {
        let name = mount.map { $0.isLetter || $0.isNumber || $0 == "." ? String($0) : "-" }.joined()
        return folder.appendingPathComponent("ffmpeg\(name).log")
    }

    /// Polls `condition` every 20 ms. `Failure.exited` and `Failure.toolMissing` end the wait at once; other
    /// errors count as not yet.
    private static func poll(_ what: String, timeout: TimeInterval, log: () -> String,
                             _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: (any Error)?
        while true {
            do {
                if try condition() { return }
            } catch let error as Failure {
                switch error {
                case .exited, .toolMissing: throw error
                default: lastError = error
                }
            } catch {
                lastError = error
            }
            guard Date() < deadline else {
                throw Failure.timedOut(what, log: (lastError.map { "last error: \($0)\n" } ?? "") + log())
            }
            usleep(20_000)
        }
    }

    /// Starts `binary` with no input, its output and errors written to a new file at `output`.
    private static func launch(_ binary: URL, arguments: [String], output: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        return process
    }

    /// SIGTERM, then SIGKILL if `process` has not exited after `timeout`; waits for it either way.
    /// Icecast takes about a second to shut down.
    private static func end(_ process: Process, timeout: TimeInterval = 5) {
        guard process.isRunning else { return }
        process.terminate()
        kill(process.processIdentifier, SIGCONT)  // in case it was paused
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func readLogs(logs: URL, output: URL) -> String {
        let text = { (url: URL) in (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        return text(output) + text(logs.appendingPathComponent("error.log"))
    }

    /// The first executable called one of `names` on the `PATH` (or in the usual folders).
    /// What makes Icecast a slave of the master on loopback `port` (an audiostreamd with `relayPassword`): every
    /// mount of its list relayed at once, the list read every second.
    static func slave(ofPort port: UInt16, password: String) -> String {
        """
        <master-server>127.0.0.1</master-server>
        <master-server-port>\(port)</master-server-port>
        <master-update-interval>1</master-update-interval>
        <master-password>\(password)</master-password>
        <relays-on-demand>0</relays-on-demand>
        """
    }

    static func tool(_ names: [String]) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        for name in names {
            for folder in folders {
                let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }

    /// The folder holding Icecast's `web` and `admin` folders (Debian: /usr/share/icecast2).
    private static func shareFolder() -> URL? {
        ["/usr/share/icecast2", "/usr/share/icecast", "/usr/local/share/icecast", "/opt/homebrew/share/icecast"]
            .map { URL(fileURLWithPath: $0) }
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("web/status-json.xsl").path) }
    }

    private static func makeFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("ice-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func randomToken() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// User `nobody` and its group (`nogroup` on Debian), for `<changeowner>`.
    private static func unprivilegedOwner() throws -> (user: String, group: String, uid: uid_t, gid: gid_t) {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r("nobody", &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            throw Failure.io("running as root, but there is no user nobody for Icecast to change to")
        }
        let uid = entry.pw_uid
        let gid = entry.pw_gid
        var groupEntry = group()
        var groupResult: UnsafeMutablePointer<group>?
        var groupBuffer = [CChar](repeating: 0, count: 4096)
        guard getgrgid_r(gid, &groupEntry, &groupBuffer, groupBuffer.count, &groupResult) == 0, groupResult != nil,
              let groupName = groupEntry.gr_name.map({ String(cString: $0) }) else {
            throw Failure.io("user nobody's group \(gid) has no name")
        }
        return ("nobody", groupName, uid, gid)
    }

    /// Percent-encodes everything but unreserved ASCII, byte by byte of the UTF-8.
    private static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
                 UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                String(UnicodeScalar(byte))
            default:
                String(format: "%%%02X", byte)
            }
        }.joined()
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func config(port: UInt16, sourcePassword: String, adminUser: String, adminPassword: String,
                               logs: URL, share: URL, owner: (user: String, group: String, uid: uid_t, gid: gid_t)?,
                               metadataInterval: Int?, relaying: String) -> String {
        let changeOwner = owner.map {
            "<changeowner><user>\(xmlEscaped($0.user))</user><group>\(xmlEscaped($0.group))</group></changeowner>"
        } ?? ""
        let mount = metadataInterval.map {
            "<mount type=\"default\"><mp3-metadata-interval>\($0)</mp3-metadata-interval></mount>"
        } ?? ""
        return """
            <icecast>
                <location>audiostream tests</location>
                <admin>tests@127.0.0.1</admin>
                <hostname>127.0.0.1</hostname>
                <limits>
                    <clients>50</clients>
                    <sources>4</sources>
                    <queue-size>524288</queue-size>
                    <client-timeout>30</client-timeout>
                    <header-timeout>10</header-timeout>
                    <source-timeout>5</source-timeout>
                    <burst-on-connect>0</burst-on-connect>
                    <burst-size>0</burst-size>
                </limits>
                <authentication>
                    <source-password>\(xmlEscaped(sourcePassword))</source-password>
                    <relay-password>\(xmlEscaped(sourcePassword))-relay</relay-password>
                    <admin-user>\(xmlEscaped(adminUser))</admin-user>
                    <admin-password>\(xmlEscaped(adminPassword))</admin-password>
                </authentication>
                <listen-socket>
                    <port>\(port)</port>
                    <bind-address>127.0.0.1</bind-address>
                </listen-socket>
                \(mount)
                \(relaying)
                <fileserve>1</fileserve>
                <paths>
                    <basedir>\(xmlEscaped(share.path))</basedir>
                    <logdir>\(xmlEscaped(logs.path))</logdir>
                    <webroot>\(xmlEscaped(share.appendingPathComponent("web").path))</webroot>
                    <adminroot>\(xmlEscaped(share.appendingPathComponent("admin").path))</adminroot>
                </paths>
                <logging>
                    <accesslog>access.log</accesslog>
                    <errorlog>error.log</errorlog>
                    <loglevel>3</loglevel>
                    <logsize>10000</logsize>
                </logging>
                <security>
                    <chroot>0</chroot>
                    \(changeOwner)
                </security>
            </icecast>

            """
    }
}

#if canImport(Glibc)
private let noSignal = Int32(MSG_NOSIGNAL)
#else
private let noSignal: Int32 = 0
#endif
