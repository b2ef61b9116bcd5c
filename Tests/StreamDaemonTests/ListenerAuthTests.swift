import FixtureSupport
import Foundation
@testable import StreamDaemon
import Testing

/// Icecast's URL authentication of listeners against a station panel's endpoint written for Icecast
/// (`Tests/Fixtures/icecast_auth_backend.py`): admitted, refused with the backend's message, timed out as
/// `onFailure` says, the time limit applied, and `listener_remove` posted with the seconds stayed.
@Suite struct ListenerAuthTests {
    /// Icecast escapes every byte of a value but letters and digits, as `%xx`.
    @Test func fieldsAreEscapedAsIcecastEscapesThem() {
        #expect(ListenerAuth.form([("mount", "/radio.mp3"), ("agent", "VLC/3.0 (é)")])
                == "mount=%2fradio%2emp3&agent=VLC%2f3%2e0%20%28%c3%a9%29")
    }

    @Test func authIsReadAsWritten() throws {
        let file = try ConfigFile("""
            http:
              listen: "127.0.0.1:8000"
              auth: {listenerAdd: "http://panel/auth?add", listenerRemove: "https://panel/remove", timeout: 2, onFailure: allow}
            streams: [{name: radio, source: stdin, socket: radio.sock}]
            """)
        #expect(try file.load().http?.auth == ListenerAuthConfig(
            listenerAdd: URL(string: "http://panel/auth?add")!, listenerRemove: URL(string: "https://panel/remove")!,
            timeout: 2, onFailure: .allow))
        let defaults = try ConfigFile("""
            http: {listen: "127.0.0.1:8000", auth: {listenerAdd: "http://panel/auth"}}
            streams: [{name: radio, source: stdin, socket: radio.sock}]
            """)
        #expect(try defaults.load().http?.auth == ListenerAuthConfig(listenerAdd: URL(string: "http://panel/auth")!))
        let refused = try ConfigFile("""
            http: {listen: "127.0.0.1:8000", auth: {listenerAdd: "http://panel/auth", onFailure: maybe}}
            streams: [{name: radio, source: stdin, socket: radio.sock}]
            """)
        let error = try #require(throws: ConfigError.self) { try refused.load() }
        #expect(error.key == "http.auth.onFailure")
        #expect(error.problem.contains("deny or allow"))
    }

    /// `icecast-auth-timelimit` as a number of seconds, a year at most, so that no number overflows a timer.
    @Test func aTimeLimitIsSecondsAYearAtMost() {
        #expect(ListenerAuth.timeLimit("30") == 30)
        #expect(ListenerAuth.timeLimit("99999999999") == 31_536_000.0)
        #expect(ListenerAuth.timeLimit("inf") == nil)
        #expect(ListenerAuth.timeLimit("0") == nil)
        #expect(ListenerAuth.timeLimit("-5") == nil)
        #expect(ListenerAuth.timeLimit("soon") == nil)
    }

    /// A daemon with `http.auth` on the backend at `backendPort`, and the backend.
    static func station(onFailure: String, folder: URL, hls: Bool = false) throws
        -> (DaemonHarness, UInt16, ToolProcess, String) {
        let backendPort = try FreePort.pick()
        let posts = folder.appendingPathComponent("posts.jsonl").path
        let backend = try ToolProcess("python3", [Fixtures.directory.appendingPathComponent("icecast_auth_backend.py").path,
                                                  String(backendPort), posts], folder: folder, name: "backend")
        let stream = DaemonHarness.loopedRadio + (hls ? "\n  hls: {segment: 1, part: 0}" : "")
        let (daemon, port) = try DaemonHarness.withHTTP(stream, http: """
            auth: {listenerAdd: "http://127.0.0.1:\(backendPort)/auth", listenerRemove: "http://127.0.0.1:\(backendPort)/auth", \
            timeout: 1, onFailure: \(onFailure)}
            """, folder: folder)
        try daemon.waitForMount(port: port, "radio")
        try daemon.waitUntil("the backend to listen") { (try? FreePort.connect(port: backendPort)).map { close($0) } != nil }
        return (daemon, port, backend, posts)
    }

    static func posted(_ path: String) -> [[String: String]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }
    }

    static func basic(_ user: String, _ password: String) -> (String, String) {
        ("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
    }

    @Test func theBackendAdmitsRefusesAndHearsTheListenerLeave() throws {
        let folder = try DaemonHarness.makeFolder()
        let (daemon, port, backend, posts) = try Self.station(onFailure: "deny", folder: folder)

        let admitted = try IcecastServer.get(port: port, path: "/radio.mp3?token=t1", headers: [Self.basic("alice", "secret")],
                                             maxBodyBytes: 20_000, timeout: 10)
        #expect(admitted.status == 200)
        #expect(admitted.body.count == 20_000)
        try daemon.waitUntil("listener_remove") { Self.posted(posts).contains { $0["action"] == "listener_remove" } }
        let add = try #require(Self.posted(posts).first { $0["action"] == "listener_add" })
        // The mount as Icecast sends it: the request's target, query and all.
        #expect(add["mount"] == "/radio.mp3?token=t1" && add["user"] == "alice" && add["pass"] == "secret")
        #expect(add["ip"] == "127.0.0.1" && add["agent"] == "audiostream-tests" && add["server"] == "127.0.0.1")
        #expect(add["port"] == String(port))
        #expect(add["_content_type"] == "application/x-www-form-urlencoded")
        let remove = try #require(Self.posted(posts).first { $0["action"] == "listener_remove" })
        #expect(remove["client"] == add["client"] && remove["mount"] == add["mount"] && remove["user"] == "alice")
        #expect(Int(remove["duration"] ?? "") != nil)

        let refused = try IcecastServer.get(port: port, path: "/radio.mp3", headers: [Self.basic("bob", "x")])
        #expect(refused.status == 401)
        #expect(refused.header("www-authenticate")?.hasPrefix("Basic") == true)
        #expect(String(decoding: refused.body, as: UTF8.self) == "not a subscriber\n")

        // The backend's time limit ends the stay.
        let brief = try RawConnection(port: port)
        brief.send("GET /radio.mp3 HTTP/1.0\r\nAuthorization: Basic \(Data("alice:brief".utf8).base64EncodedString())\r\n\r\n")
        let (heard, closed) = brief.readToEnd(timeout: 15)
        #expect(closed, "the time limit did not end the listener's stay")
        #expect(String(decoding: heard.prefix(12), as: UTF8.self) == "HTTP/1.0 200")

        // A backend slower than the timeout, or answering a server error: denied.
        let late = try IcecastServer.get(port: port, path: "/radio.mp3", headers: [Self.basic("slow", "x")], timeout: 10)
        #expect(late.status == 403)
        #expect(try IcecastServer.get(port: port, path: "/radio.mp3", headers: [Self.basic("broken", "x")]).status == 403)
        withExtendedLifetime(backend) {}
    }

    /// An HLS session is asked about once, when it is first seen, and its leaving posted once it stops asking.
    @Test func hlsSessionsGoThroughTheSameDoor() throws {
        let folder = try DaemonHarness.makeFolder()
        let (daemon, port, backend, posts) = try Self.station(onFailure: "deny", folder: folder, hls: true)
        let playlist = "/hls/radio/live.m3u8?session=car-7"
        var first = try IcecastServer.get(port: port, path: playlist, headers: [Self.basic("alice", "secret")], timeout: 10)
        // The playlist waits for its first three segments.
        try daemon.waitUntil("the playlist") {
            first = try IcecastServer.get(port: port, path: playlist, headers: [Self.basic("alice", "secret")])
            return first.status == 200
        }
        #expect(String(decoding: first.body, as: UTF8.self).hasPrefix("#EXTM3U"))
        for _ in 0..<3 {
            #expect(try IcecastServer.get(port: port, path: playlist).status == 200)
        }
        let adds = Self.posted(posts).filter { $0["action"] == "listener_add" }
        #expect(adds.count == 1)
        #expect(adds.first?["mount"] == "/hls/radio" && adds.first?["user"] == "alice")
        let refused = try IcecastServer.get(port: port, path: "/hls/radio/live.m3u8?session=other",
                                            headers: [Self.basic("bob", "x")])
        #expect(refused.status == 401)
        #expect(String(decoding: refused.body, as: UTF8.self) == "not a subscriber\n")
        // The session stops asking: after two target durations it is gone, and the backend hears it.
        try daemon.waitUntil("listener_remove of the session", timeout: 10) {
            Self.posted(posts).contains { $0["action"] == "listener_remove" && $0["client"] == adds.first?["client"] }
        }
        withExtendedLifetime(backend) {}
    }

    @Test func aBackendThatCannotAnswerLetsListenersInWhenTheStationSaysSo() throws {
        let folder = try DaemonHarness.makeFolder()
        let (daemon, port, backend, _) = try Self.station(onFailure: "allow", folder: folder)
        let late = try IcecastServer.get(port: port, path: "/radio.mp3", headers: [Self.basic("slow", "x")],
                                         maxBodyBytes: 10_000, timeout: 10)
        #expect(late.status == 200)
        #expect(late.body.count == 10_000)
        #expect(daemon.log.contains("admitting the listener"))
        let broken = try IcecastServer.get(port: port, path: "/radio.mp3", headers: [Self.basic("broken", "x")],
                                           maxBodyBytes: 10_000, timeout: 10)
        #expect(broken.status == 200)
        #expect(daemon.log.contains("the backend answered 502"))
        withExtendedLifetime(backend) {}
    }
}
