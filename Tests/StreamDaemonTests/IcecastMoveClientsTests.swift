import FixtureSupport
import Foundation
import Testing

/// Icecast's admin commands that cannot be done refuse as icecast2 2.4.4 does, with its status and words (found in
/// its answers and its binary): `moveclients` to the same mount, to no mount, to a mount off the air, from a mount
/// off the air, or across content types (where Icecast answers success but moves no one, logging "of different
/// types, ignored"), and commands on a mount off the air; the listener stays where it was.
@Suite struct IcecastMoveClientsTests {
    @Test func impossibleCommandsAreRefusedAsIcecastRefusesThem() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: mp3
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: mp3.sock
            - name: opus
              source: file:\(Fixtures.directory.appendingPathComponent("ogg/ogg-opus-64k-stereo.opus").path)
              loop: true
              socket: opus.sock
            - name: live
              source: push
              socket: live.sock
            """, http: "adminPassword: pw, sourcePassword: src")
        try daemon.waitForMount(port: port, "mp3")
        try daemon.waitForMount(port: port, "opus")
        let listener = try ToolProcess("curl", [
            "-sS", "-N", "-A", IcecastAdminTests.userAgent, "-o", "/dev/null", "http://127.0.0.1:\(port)/mp3",
        ], folder: daemon.folder, name: "listener")
        defer { listener.stop(timeout: 0) }
        let admin = { (command: String) in
            try IcecastServer.get(port: port, path: "/admin/\(command)",
                                  headers: [("Authorization", IcecastAdminTests.basic("admin", "pw"))])
        }
        let listed = { String(decoding: try admin("listclients?mount=/mp3").body, as: UTF8.self) }
        try daemon.waitUntil("the listener") { try listed().contains(IcecastAdminTests.userAgent) }

        for (command, reason) in [
            ("moveclients?mount=/mp3&destination=/mp3", "supplied mountpoints are identical"),
            ("moveclients?mount=/mp3&destination=/nowhere", "No such destination"),
            ("moveclients?mount=/mp3&destination=/live", "Destination not running"),
            ("moveclients?mount=/live&destination=/mp3", "Source does not exist"),
            ("moveclients?mount=/mp3&destination=/opus", "stream /mp3 and /opus are of different types"),
            ("stats?mount=/live", "Source does not exist"),
            ("killclient?mount=/live&id=1", "Source does not exist"),
            ("killclient?mount=/mp3", "Missing parameter"),
        ] {
            let answer = try admin(command)
            #expect(answer.status == 400, "\(command): \(answer.statusLine)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains(reason), "\(command)")
        }
        #expect(try listed().contains("<Listeners>1</Listeners>"), "the listener left /mp3")
        #expect(listener.process.isRunning)
    }
}
