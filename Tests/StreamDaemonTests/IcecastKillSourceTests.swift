import Foundation
import Testing

/// Icecast's `killsource` on a mount the daemon pulls from a station (here a real icecast2): as Icecast does with
/// a relay, the connection is dropped and made again, rather than the call being refused for want of a DJ.
@Suite struct IcecastKillSourceTests {
    @Test func killsourceMakesAPulledMountConnectAgain() throws {
        let icecast = try IcecastServer()
        try icecast.startSource(file: HTTPListenerTests.demo)
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: \(icecast.url)
              socket: radio.sock
            """, http: "adminPassword: \(icecast.adminPassword)")
        try daemon.waitForMount(port: port, "radio")
        // The station counts each connection of a listener: the daemon's, then the one it makes again.
        let connections = { () throws -> Int? in
            let stats = IcecastAdminTests.elements(try IcecastAdminTests.admin(icecast.port, "stats", icecast))
            return stats.first { $0.path == "icestats/listener_connections" }.flatMap { Int($0.text) }
        }
        let before = try #require(try connections())

        #expect(try IcecastAdminTests.admin(port, "killsource?mount=/radio", icecast)
                    == IcecastAdminTests.response("Source Removed", done: true))
        try daemon.waitUntil("the station connected to again") {
            try daemon.streamStatus("radio")?["reconnects"] as? Int == 1 && connections() == before + 1
        }
        try daemon.waitUntil("the mount back on the air") {
            try IcecastAdminTests.admin(port, "listmounts", icecast).contains("<source mount=\"/radio\">")
        }
        #expect(daemon.log.contains("removed by an admin (killsource)"), "\(daemon.log)")
    }
}
