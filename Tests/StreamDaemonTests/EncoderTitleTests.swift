import FixtureSupport
import Foundation
import Testing

/// Encoders (Liquidsoap, butt, Mixxx) set their mount's title with `/admin/metadata?mode=updinfo` and the source
/// user and password they push with, as Icecast 2.4 accepts: on their own mount only, while the admin's credentials
/// set every mount's.
@Suite struct EncoderTitleTests {
    static let admin = "admin-secret"

    /// `live` takes the server's source password, `studio` a password of its own; `radio` is a file.
    static func daemon(adminPassword: Bool = true) throws -> (DaemonHarness, UInt16) {
        let folder = try DaemonHarness.makeFolder()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
            - name: studio
              source: push
              sourcePassword: studio-pass
              socket: studio.sock
            - name: radio
              source: file:\(PushSourceTests.song.path)
              loop: true
              socket: radio.sock
            """, http: "sourcePassword: hackme" + (adminPassword ? ", adminPassword: \(admin)" : ""), folder: folder)
        try daemon.waitForHTTP()
        return (daemon, port)
    }

    static func setTitle(_ port: UInt16, mount: String, _ title: String, user: String, folder: URL) throws -> Int {
        try AdminMetadataTests.call(port, "mount=\(mount)&mode=updinfo&song=\(title)", user: user, folder: folder)
            .status
    }

    @Test func theSourceCredentialsOfAMountSetItsTitleAndNoOther() throws {
        let (daemon, port) = try Self.daemon()
        let folder = daemon.folder
        // A DJ on each push mount, as when an encoder sets titles.
        let song = try Data(contentsOf: PushSourceTests.song)
        let djs = try [("/live", "hackme"), ("/studio", "studio-pass")].map { mount, password in
            let dj = try RawConnection(port: port)
            let credentials = Data("source:\(password)".utf8).base64EncodedString()
            dj.send("SOURCE \(mount) ICE/1.0\r\nAuthorization: Basic \(credentials)\r\nContent-Type: audio/mpeg\r\n\r\n")
            #expect(PushSourceTests.readHead(dj) == "HTTP/1.0 200 OK\r\n\r\n")
            dj.send(song)
            return dj
        }
        let live = try daemon.subscribe("live", kinds: "packets,metadata")
        let studio = try daemon.subscribe("studio", kinds: "packets,metadata")

        #expect(try Self.setTitle(port, mount: "/live", "Live+Song", user: "source:hackme", folder: folder) == 200)
        #expect(try Self.setTitle(port, mount: "/studio", "Studio+Song", user: "source:studio-pass",
                                  folder: folder) == 200)
        // A title takes its place in the audio: it reaches subscribers with the audio that follows it.
        djs.forEach { $0.send(song) }
        try daemon.waitUntil("both titles") {
            live.events.contains { IcecastTests.title($0) == "Live Song" }
                && studio.events.contains { IcecastTests.title($0) == "Studio Song" }
        }
        // Another mount's source password, the server's on a mount with its own, or a file's mount: refused.
        #expect(try Self.setTitle(port, mount: "/live", "x", user: "source:studio-pass", folder: folder) == 401)
        #expect(try Self.setTitle(port, mount: "/studio", "x", user: "source:hackme", folder: folder) == 401)
        #expect(try Self.setTitle(port, mount: "/radio", "x", user: "source:hackme", folder: folder) == 401)
        #expect(try Self.setTitle(port, mount: "/live", "x", user: "admin:hackme", folder: folder) == 401,
                "the source password is not the admin's")
        // The admin sets any mount's.
        #expect(try Self.setTitle(port, mount: "/studio", "By+Admin", user: "admin:\(Self.admin)", folder: folder)
            == 200)
        djs.forEach { $0.send(song) }
        try daemon.waitUntil("the admin's title") { studio.events.contains { IcecastTests.title($0) == "By Admin" } }
        #expect(!live.events.contains { IcecastTests.title($0) == "x" })
        #expect(!studio.events.contains { IcecastTests.title($0) == "x" })
    }

    @Test func withoutAnAdminPasswordAPushMountStillTakesItsSourceCredentials() throws {
        let (daemon, port) = try Self.daemon(adminPassword: false)
        let folder = daemon.folder
        #expect(try Self.setTitle(port, mount: "/live", "Song", user: "source:hackme", folder: folder) == 200)
        #expect(try Self.setTitle(port, mount: "/live", "Song", user: "source:wrong", folder: folder) == 401)
        #expect(try Self.setTitle(port, mount: "/radio", "Song", user: "source:hackme", folder: folder) == 403)
    }
}
