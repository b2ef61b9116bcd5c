import FixtureSupport
import Foundation
import Testing

/// Icecast's `/admin/metadata?mode=updinfo`, sent by curl as automation systems send it: the title reaches socket
/// subscribers as ICY metadata, HTTP listeners as their StreamTitle, and a recording that splits on titles.
@Suite struct AdminMetadataTests {
    static let password = "admin-secret"

    /// A looped file with no tags (so no title but the admin call's) served at `/radio`, recorded in pieces
    /// split on titles, with an admin password.
    static func radio() throws -> (DaemonHarness, UInt16) {
        let folder = try DaemonHarness.makeFolder()
        let plain = folder.appendingPathComponent("plain.mp3").path
        _ = try FFmpegTool.run("ffmpeg", [
            "-v", "error", "-i", HTTPListenerTests.demo.path, "-map", "0:a", "-c", "copy", "-map_metadata", "-1",
            "-id3v2_version", "0", "-write_xing", "0", plain,
        ])
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(plain)
              loop: true
              socket: radio.sock
              record: {path: "rec/{n}-{title}.mp3", splitOnTitle: true}
            """, http: "adminPassword: \(password)", folder: folder)
        try daemon.waitForMount(port: port, "radio")
        return (daemon, port)
    }

    /// `curl` asking for `query` of `/admin/metadata` as `user:password`: the status code and the body.
    static func call(_ port: UInt16, _ query: String, user: String = "admin:\(password)",
                     folder: URL) throws -> (status: Int, body: String) {
        let result = try ToolProcess.run("curl", [
            "-sS", "--max-time", "20", "-u", user, "-w", "\n%{http_code}",
            "http://127.0.0.1:\(port)/admin/metadata?\(query)",
        ], folder: folder, name: "curl-admin")
        let text = String(decoding: result.output, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(result.status == 0, "\(result.errors)")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func aTitleSetByTheAdminCallReachesSubscribersListenersAndTheRecording() throws {
        let (daemon, port) = try Self.radio()
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        let folder = daemon.folder
        // UTF-8, percent-encoded byte by byte with spaces as `+`, as HTML forms and most tools send it.
        let title = "Café ☃ Ünïcødé"
        let encoded = title.utf8.map { $0 == 0x20 ? "+" : String(format: "%%%02X", $0) }.joined()
        let answer = try Self.call(port, "mount=/radio&mode=updinfo&song=\(encoded)", folder: folder)
        #expect(answer.status == 200)
        // Icecast 2.4.4's answer, byte for byte.
        #expect(answer.body == "<?xml version=\"1.0\"?>\n"
            + "<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n")
        try daemon.waitUntil("the subscriber to get the title") {
            subscriber.events.contains { IcecastTests.title($0) == title }
        }

        // A listener that comes now gets the title in its first metadata block.
        let listened = try IcecastServer.get(port: port, path: "/radio", headers: [("Icy-MetaData", "1")],
                                             maxBodyBytes: 20_000, timeout: 20)
        let metaint = try #require(Int(listened.header("icy-metaint") ?? ""))
        let blocks = HTTPStreamCheck.splitICY(listened.body, metaint: metaint).blocks
        #expect(blocks.first.flatMap(HTTPStreamCheck.streamTitle) == title, "\(blocks)")

        // One mount: Icecast's statistics list its source as an object, not an array.
        let stats = try IcecastStatusTests.stats(port: port)
        #expect(IcecastStatusTests.source(stats, url: "http://127.0.0.1:\(port)/radio")?["title"] as? String == title)
        #expect(stats["source"] is [String: Any])

        // The piece under way ended at the title; the next is named for it.
        try daemon.waitUntil("a piece named for the title") {
            let recording = try daemon.streamStatus("radio")?["recording"] as? [String: Any]
            return (recording?["currentPiece"] as? String)?.contains("Café") == true
        }

        // ISO-8859-1, as older tools send it: é is the byte E9.
        let latin1 = try Self.call(port, "mount=/radio&mode=updinfo&song=%E9t%E9+%E0+Paris&charset=ISO-8859-1",
                                   folder: folder)
        #expect(latin1.status == 200)
        try daemon.waitUntil("the subscriber to get the Latin-1 title") {
            subscriber.events.contains { IcecastTests.title($0) == "été à Paris" }
        }
    }

    @Test func aWrongPasswordAMissingSongAndAnUnknownMountAreRefused() throws {
        let (daemon, port) = try Self.radio()
        let folder = daemon.folder
        let wrong = try ToolProcess.run("curl", [
            "-sS", "-i", "--max-time", "20", "-u", "admin:wrong",
            "http://127.0.0.1:\(port)/admin/metadata?mount=/radio&mode=updinfo&song=x",
        ], folder: folder, name: "curl-wrong")
        let head = String(decoding: wrong.output, as: UTF8.self).lowercased()
        #expect(head.hasPrefix("http/1.1 401"), "\(head)")
        #expect(head.contains("www-authenticate: basic realm="), "\(head)")
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=x", user: "source:\(Self.password)",
                              folder: folder).status == 401)
        #expect(try Self.call(port, "mount=/radio&mode=updinfo", folder: folder).status == 400)
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=%E9", folder: folder).status == 200,
                "not UTF-8 without a charset: read as Windows-1252")
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=%E9&charset=UTF-8", folder: folder).status == 400)
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=x&charset=KOI8-R", folder: folder).status == 400)
        #expect(try Self.call(port, "mount=/radio&mode=stats&song=x", folder: folder).status == 400)
        #expect(try Self.call(port, "mount=/elsewhere&mode=updinfo&song=x", folder: folder).status == 404)
        #expect(try daemon.streamStatus("radio")?["state"] as? String == "running", "the stream goes on")

        // `+` is a space, `%2B` a plus; a line break becomes a space, so that the ICY block stays one line.
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=1+%2B+1%0A%3D+2&song=ignored",
                              folder: folder).status == 200)
        try daemon.waitUntil("the title") {
            let stats = try IcecastStatusTests.stats(port: port)
            return IcecastStatusTests.source(stats, url: "http://127.0.0.1:\(port)/radio")?["title"] as? String
                == "1 + 1 = 2"
        }
    }

    @Test func withoutAnAdminPasswordTheCallIsRefused() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("- name: radio\n  source: stdin\n  socket: radio.sock")
        try daemon.waitForHTTP()
        #expect(try Self.call(port, "mount=/radio&mode=updinfo&song=x", folder: daemon.folder).status == 403)
    }
}
