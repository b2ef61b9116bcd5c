import FixtureSupport
import Foundation
import Testing

/// Wrong passwords at every door (the admin call, a source client, the relay's stream list) are logged at notice
/// with the client's address, user and mount, for fail2ban, and an address that keeps failing waits longer and
/// longer for its answers (docs/operations.md: after 5 failures less than a minute apart, 1 s, doubling to 16 s).
@Suite struct FailedAuthenticationTests {
    /// A push stream `live` and a file stream `radio`, every password set, logging as to the journal.
    static func daemon() throws -> (DaemonHarness, UInt16) {
        let folder = try DaemonHarness.makeFolder()
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            http: {listen: "127.0.0.1:\(port)", sourcePassword: hackme, adminPassword: admin-pass, relayPassword: relay-pass}
            streams:
              - {name: live, source: push, socket: live.sock}
              - {name: radio, source: "file:\(PushSourceTests.song.path)", loop: true, socket: radio.sock}
            """, folder: folder, environment: DaemonHarness.journalEnvironment(in: folder))
        try daemon.waitForHTTP()
        return (daemon, port)
    }

    /// curl's status code for `path` with `arguments`.
    static func status(_ port: UInt16, _ path: String, _ arguments: [String], folder: URL) throws -> Int {
        let result = try ToolProcess.run("curl", ["-sS", "-o", "/dev/null", "--max-time", "60", "-w", "%{http_code}"]
                                         + arguments + ["http://127.0.0.1:\(port)\(path)"], folder: folder, name: "curl")
        return Int(String(decoding: result.output, as: UTF8.self)) ?? 0
    }

    /// The daemon's log lines at notice (journal priority 5).
    static func notices(_ daemon: DaemonHarness) -> [Substring] {
        daemon.log.split(separator: "\n").filter { $0.hasPrefix("<5>") }
    }

    @Test func eachFailedAuthenticationAndRefusedSourceIsLoggedAtNotice() throws {
        let (daemon, port) = try Self.daemon()
        let folder = daemon.folder
        #expect(try PushSourceTests.curlPut(port: port, "/live", password: "guess", folder: folder).status
            == "HTTP/1.1 401 Unauthorized")
        #expect(try Self.status(port, "/admin/metadata?mount=/radio&mode=updinfo&song=x", ["-u", "admin:guess"],
                                folder: folder) == 401)
        #expect(try Self.status(port, "/admin/streamlist.txt", ["-u", "relay:guess"], folder: folder) == 401)
        #expect(try Self.status(port, "/admin/streamlist.txt", [], folder: folder) == 401)
        #expect(try PushSourceTests.curlPut(port: port, "/radio", password: "hackme", folder: folder).status
            == "HTTP/1.1 403 Forbidden")
        #expect(try PushSourceTests.curlPut(port: port, "/nowhere", password: "hackme", folder: folder).status
            == "HTTP/1.1 404 Not Found")
        let malformed = try RawConnection.exchange(port: port, "SOURCE /live HTTP/1.0\r\nBad Name: x\r\n\r\n")
        #expect(malformed.text.hasPrefix("HTTP/1.0 400 Bad Request"))
        // Right passwords are not logged as failures.
        #expect(try Self.status(port, "/admin/streamlist.txt", ["-u", "relay:relay-pass"], folder: folder) == 200)

        let expected = [
            "authentication failed from 127.0.0.1 for /live (source client, user 'source')",
            "authentication failed from 127.0.0.1 for /radio (admin call, user 'admin')",
            "authentication failed from 127.0.0.1 for /admin/streamlist.txt (relay, user 'relay')",
            "authentication failed from 127.0.0.1 for /admin/streamlist.txt (relay, no credentials)",
            "refused a source client from 127.0.0.1 for /radio: 403",
            "refused a source client from 127.0.0.1 for /nowhere: 404",
            "refused a request from 127.0.0.1: malformed request",
        ]
        try daemon.waitUntil("every line") { Self.notices(daemon).count >= expected.count }
        let notices = Self.notices(daemon)
        for line in expected {
            #expect(notices.contains { $0.contains(line) }, "no notice: \(line)\n\(daemon.log)")
        }
        #expect(notices.count == expected.count, "\(notices)")
    }

    @Test func anAddressThatKeepsFailingWaitsLongerAndARightPasswordClearsIt() throws {
        let (daemon, port) = try Self.daemon()
        let folder = daemon.folder
        let wrong = ["-u", "relay:guess"]
        for _ in 0..<6 {
            #expect(try Self.status(port, "/admin/streamlist.txt", wrong, folder: folder) == 401)
        }
        let failures = Self.notices(daemon).filter { $0.contains("authentication failed") }
        #expect(failures.count == 6)
        // The fifth failure starts the back-off; each one after doubles it.
        #expect(failures.prefix(4).allSatisfy { !$0.contains("wait") }, "\(failures)")
        #expect(failures.dropFirst(4).first?.hasSuffix("; its requests now wait 1 s") == true, "\(failures)")
        #expect(failures.dropFirst(5).first?.hasSuffix("; its requests now wait 2 s") == true, "\(failures)")
        // A right password, after its wait, is answered, and the address starts clean.
        #expect(try Self.status(port, "/admin/streamlist.txt", ["-u", "relay:relay-pass"], folder: folder) == 200)
        #expect(try Self.status(port, "/admin/streamlist.txt", wrong, folder: folder) == 401)
        #expect(Self.notices(daemon).last?.hasSuffix("(relay, user 'relay')") == true, "\(Self.notices(daemon))")
        // Other requests never wait: the status page needs no password.
        #expect(try Self.status(port, "/status-json.xsl", [], folder: folder) == 200)
    }
}
