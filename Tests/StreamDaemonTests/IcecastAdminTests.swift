import FixtureSupport
import Foundation
import Testing

/// Icecast 2.4's admin commands against a real icecast2 fed by the same source client at the same mount, with the
/// same listener: `stats`, `listmounts` and `listclients` have the same elements, in the same order, with the
/// same kinds of text, and the same values where they mean the same thing; `killclient`, `moveclients` and
/// `killsource` answer as Icecast does and do what it does; a wrong password is refused by both.
@Suite struct IcecastAdminTests {
    static let mount = "/live.mp3"
    static let userAgent = "TestPlayer/1.0"

    @Test func theAdminCommandsAnswerAsIcecastDoes() throws {
        let icecast = try IcecastServer()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              mount: \(Self.mount)
              socket: live.sock
            - name: other
              source: push
              mount: /other.mp3
              socket: other.sock
            """, http: "sourcePassword: \(icecast.sourcePassword), adminPassword: \(icecast.adminPassword)")
        // The same source client, as IcecastServer runs it, at both mounts of both servers.
        var djs: [ToolProcess] = []
        defer { for dj in djs { dj.stop(timeout: 0) } }
        for mount in [Self.mount, "/other.mp3"] {
            try icecast.startSource(file: HTTPListenerTests.demo, mount: mount, name: "Admin Test")
            djs.append(try ToolProcess("ffmpeg", [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i",
                HTTPListenerTests.demo.path, "-c", "copy", "-id3v2_version", "0", "-write_xing", "0", "-content_type",
                "audio/mpeg", "-ice_name", "Admin Test", "-ice_genre", "Testing", "-ice_description",
                "audiostream end-to-end test", "-f", "mp3",
                "icecast://source:\(icecast.sourcePassword)@127.0.0.1:\(port)\(mount)",
            ], folder: daemon.folder, name: "dj\(djs.count)"))
        }
        try daemon.waitUntil("the DJs on the air") {
            let mounts = try Self.admin(port, "listmounts", icecast)
            return mounts.contains(Self.mount) && mounts.contains("/other.mp3")
        }
        let theirListener = try Self.listen(icecast.port, folder: daemon.folder, name: "their-listener")
        let ourListener = try Self.listen(port, folder: daemon.folder, name: "our-listener")
        defer { theirListener.stop(timeout: 0); ourListener.stop(timeout: 0) }
        let clients = "listclients?mount=\(Self.mount)"
        try daemon.waitUntil("both listeners") {
            try [port, icecast.port].allSatisfy { try Self.admin($0, clients, icecast).contains(Self.userAgent) }
        }
        // Icecast's statistics count a listener some moments after it came, the mount's before the server's.
        try daemon.waitUntil("Icecast to count its listener") {
            let stats = Self.elements(try Self.admin(icecast.port, "stats", icecast))
            let counts = stats.filter { $0.path.hasSuffix("/listeners") }
            // The server's, then /live.mp3's and /other.mp3's.
            return counts.map(\.text) == ["1", "1", "0"]
        }

        // With a mount, stats lists its source alone; moveclients without a destination, where it could go.
        let commands = ["stats", "listmounts", clients, "stats?mount=\(Self.mount)", "moveclients?mount=\(Self.mount)"]
        for command in commands {
            let ours = Self.elements(try Self.admin(port, command, icecast))
            let theirs = Self.elements(try Self.admin(icecast.port, command, icecast))
            #expect(ours.map(\.path) == theirs.map(\.path), "\(command): ours \(ours), Icecast's \(theirs)")
            for (our, their) in zip(ours, theirs) where our.path == their.path {
                #expect(Self.kind(our.text) == Self.kind(their.text), "\(command) \(our.path): \(our.text) \(their.text)")
                if Self.sameMeaning.contains(String(our.path.split(separator: "/").last ?? "")) {
                    #expect(our.text == their.text, "\(command) \(our.path)")
                }
            }
        }

        try IcecastStatusTests.compare(ours: port, theirs: icecast, mounts: [Self.mount, "/other.mp3"])

        // killclient: the listener by its id, then an id no one has.
        for server in [port, icecast.port] {
            let id = try #require(Self.elements(try Self.admin(server, clients, icecast)).first { $0.path.hasSuffix("/ID") })
            #expect(try Self.admin(server, "killclient?mount=\(Self.mount)&id=\(id.text)", icecast)
                        == Self.response("Client \(id.text) removed", done: true))
            #expect(try Self.admin(server, "killclient?mount=\(Self.mount)&id=999", icecast)
                        == Self.response("Client 999 not found", done: false))
        }
        try daemon.waitUntil("our listener to be dropped") { !ourListener.process.isRunning }

        // moveclients: a new listener of /live.mp3 goes on with /other.mp3's audio.
        let moving = try Self.listen(port, folder: daemon.folder, name: "moving")
        defer { moving.stop(timeout: 0) }
        try daemon.waitUntil("the new listener") { try Self.admin(port, clients, icecast).contains("<ID>") }
        let moved = "moveclients?mount=\(Self.mount)&destination=/other.mp3"
        #expect(try Self.admin(port, moved, icecast) == Self.response("Clients moved from \(Self.mount) to /other.mp3",
                                                                        done: true))
        #expect(try Self.admin(icecast.port, moved, icecast) == Self.response(
            "Clients moved from \(Self.mount) to /other.mp3", done: true))
        try daemon.waitUntil("the listener at /other.mp3") {
            try Self.admin(port, "listclients?mount=/other.mp3", icecast).contains(Self.userAgent)
        }
        #expect(moving.process.isRunning, "the moved listener was dropped")

        // killsource: the DJ is dropped, and the mount leaves the list.
        #expect(try Self.admin(port, "killsource?mount=\(Self.mount)", icecast) == Self.response("Source Removed",
                                                                                                 done: true))
        try daemon.waitUntil("the mount to go") { try !Self.admin(port, "listmounts", icecast).contains(Self.mount) }
        for server in [port, icecast.port] {
            let missing = try IcecastServer.get(port: server, path: "/admin/killsource?mount=/nowhere",
                                                headers: [("Authorization", Self.basic("admin", icecast.adminPassword))])
            #expect(missing.status == 400)
            #expect(String(decoding: missing.body, as: UTF8.self).contains("Source does not exist"))
            let wrong = try IcecastServer.get(port: server, path: "/admin/stats",
                                              headers: [("Authorization", Self.basic("admin", "wrong"))])
            #expect(wrong.status == 401, "\(server)")
        }
    }

    // MARK: - Helpers

    /// Leaves whose text means the same on both servers for the same source and listener.
    static let sameMeaning: Set<String> = [
        "listeners", "Listeners", "sources", "server_name", "server_type", "genre", "server_description",
        "max_listeners", "public", "slow_listeners", "source_ip", "user_agent", "IP", "UserAgent", "content-type",
        "fallback", "host", "current_source",
    ]

    /// The body of `/admin/COMMAND` on the server at `port`, as user admin.
    static func admin(_ port: UInt16, _ command: String, _ icecast: IcecastServer) throws -> String {
        let answer = try IcecastServer.get(port: port, path: "/admin/\(command)",
                                           headers: [("Authorization", basic("admin", icecast.adminPassword))])
        return String(decoding: answer.body, as: UTF8.self)
    }

    /// A listener of `/live.mp3` on `port`, with the test's user agent, until stopped.
    static func listen(_ port: UInt16, folder: URL, name: String) throws -> ToolProcess {
        try ToolProcess("curl", ["-sS", "-N", "-A", userAgent, "-o", "/dev/null", "http://127.0.0.1:\(port)\(mount)"],
                        folder: folder, name: name)
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// Icecast's answer to a command that acts, byte for byte.
    static func response(_ message: String, done: Bool) -> String {
        "<?xml version=\"1.0\"?>\n<iceresponse><message>\(message)</message><return>\(done ? 1 : 0)</return></iceresponse>\n"
    }

    /// Every element of `xml` in order, as its path from the root (a source's carrying its mount), with its text
    /// when it holds text alone.
    static func elements(_ xml: String) -> [(path: String, text: String)] {
        var found: [(path: String, text: String)] = []
        var stack: [String] = []
        let tag = /<(\/?)([A-Za-z_][\w.\-]*)((?:\s+[\w\-]+="[^"]*")*)\s*>/
        var rest = xml[...]
        while let match = rest.firstMatch(of: tag) {
            let between = rest[..<match.range.lowerBound]
            if match.output.1 == "/" {
                if let last = found.indices.last, found[last].path == stack.joined(separator: "/") {
                    found[last].text = String(between)
                }
                stack.removeLast()
            } else {
                stack.append(String(match.output.2) + match.output.3.replacing(" ", with: ""))
                found.append((stack.joined(separator: "/"), ""))
            }
            rest = rest[match.range.upperBound...]
        }
        return found
    }

    /// Whether a leaf's text is a number or other text.
    static func kind(_ text: String) -> String { Int(text) != nil ? "number" : "text" }
}
