import FixtureSupport
import Foundation
import Testing

/// What the HTTP source asks for and announces: the request target as written, ports in range, the order of a
/// new connection's events.
@Suite struct HTTPRequestTests {
    /// The request target must be the URL's path as written: `url.path` decodes percent escapes (a space cannot
    /// even be sent: "invalid character in header") and drops a trailing slash.
    @Test(arguments: ["/my%20station.mp3", "/mount/", "/a%3Fb", "/a%2Fb"])
    func theRequestTargetIsThePathAsWritten(path: String) throws {
        let server = try LocalRadioServer(replies: [.status("404 Not Found")])
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: http://127.0.0.1:\(server.port)\(path)
                socket: radio.sock
                reconnect: false
            """)
        #expect(try daemon.waitForExit() == 1, "\(daemon.log)")
        #expect(server.requests.first?.hasPrefix("GET \(path) HTTP/1.1\r\n") == true,
                "sent \(server.requests.first.map { String($0.prefix(60)) } ?? "nothing"); log: \(daemon.log)")
    }

    /// A port beyond 65535 is refused, never wrapped around to another port.
    @Test func aPortOutOfRangeIsNotWrappedToAnotherPort() throws {
        let server = try LocalRadioServer(replies: [.status("404 Not Found")])
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: http://127.0.0.1:\(server.port + 65536)/live
                socket: radio.sock
                reconnect: false
            """)
        _ = try? daemon.waitForExit()
        #expect(server.requests.isEmpty, "port \(server.port + 65536) reached the server on \(server.port)")
    }

    /// The station of the new connection belongs after the reconnect discontinuity, not before it: a client that
    /// resets what it knows of the source at a reconnect would otherwise throw the new station away.
    @Test func theNewStationIsAnnouncedAfterTheReconnectEvent() throws {
        let fixture = ICYFixture("icy-metaint64")
        var first = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint, name: "First")
        first.cutAfter = 9000
        let second = LocalRadioServer.Reply.icy(fixture.body, metaint: fixture.metaint, name: "Second")
        let server = try LocalRadioServer(replies: [first, second, .status("503 Service Unavailable")], held: true)
        let result = try HTTPSourceTests.receive(
            from: server, reconnect: "{initialDelay: 0.05, maxDelay: 0.2, attempts: 2}", exitStatus: 1)

        let reconnect = try #require(result.events.firstIndex { $0["reason"] as? String == "reconnect" })
        let station = try #require(result.events.firstIndex { $0["source"] as? String == "http" && $0["name"] as? String == "Second" })
        #expect(station > reconnect, "the new station (event \(station)) came before the reconnect (event \(reconnect))")
    }
}
