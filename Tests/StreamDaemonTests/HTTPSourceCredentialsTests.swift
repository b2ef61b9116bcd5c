import Foundation
@testable import StreamDaemon
import Testing

/// A password-protected station: the credentials of its URL are sent, followed only to the same origin, and
/// shown nowhere.
@Suite struct HTTPSourceCredentialsTests {
    /// `printf 'user:p@ss' | base64`: the Basic credentials of `user:p%40ss@` (RFC 7617, escapes decoded).
    static let authorization = "Authorization: Basic dXNlcjpwQHNz\r\n"

    /// The station redirects within itself (the credentials go along), then to another origin (they do not).
    @Test func credentialsAreSentToTheStationAndShownNowhere() throws {
        let fixture = ICYFixture("icy-metaint64")
        let elsewhere = try LocalRadioServer(replies: [.icy(fixture.body, metaint: fixture.metaint)])
        let station = try LocalRadioServer(replies: [.redirect(to: "/moved"), .redirect(to: elsewhere.url)], held: true)
        let source = station.url.replacingOccurrences(of: "http://", with: "http://user:p%40ss@")
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: \(source)
                socket: radio.sock
                reconnect: false
                queueSeconds: 60
            """)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        let status = try #require(try daemon.streamStatus("radio"))
        station.open()
        let result = subscriber.finish()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")

        #expect(station.requests.count == 2)
        #expect(station.requests.allSatisfy { $0.contains(Self.authorization) }, "\(station.requests)")
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.allSatisfy { !$0.lowercased().contains("authorization:") })
        #expect(result.lines.contains { $0.contains(#""event":"packet""#) })
        #expect(status["source"] as? String == station.url)
        for text in [daemon.log, result.lines.joined(separator: "\n"), "\(status)"] {
            #expect(!text.contains("p%40ss") && !text.contains("p@ss") && !text.contains("user@"), "\(text)")
        }
        #expect(daemon.log.contains("redirected to \(station.url.replacingOccurrences(of: "/live", with: "/moved"))"))
    }

    @Test func aRedirectKeepsTheCredentialsOnlyOnTheSameOrigin() throws {
        let target = HTTPSourceTarget(url: URL(string: "http://u:pw@Radio.example/live")!)
        #expect(target.url.absoluteString == "http://Radio.example/live")
        #expect(target.credentials == BasicCredentials(user: "u", password: "pw"))
        let cases: [(location: String, url: String, credentials: BasicCredentials?)] = [
            ("/moved?x=1", "http://Radio.example/moved?x=1", target.credentials),
            ("http://radio.EXAMPLE:80/other", "http://radio.EXAMPLE:80/other", target.credentials),
            ("https://radio.example/live", "https://radio.example/live", nil),
            ("http://radio.example:8000/live", "http://radio.example:8000/live", nil),
            ("http://cdn.example/live", "http://cdn.example/live", nil),
            ("http://v:x@cdn.example/live", "http://cdn.example/live", BasicCredentials(user: "v", password: "x")),
        ]
        for (location, url, credentials) in cases {
            let next = try #require(target.redirected(to: location))
            #expect(next.url.absoluteString == url, "\(location)")
            #expect(next.credentials == credentials, "\(location)")
        }
        #expect(cases.count == 6)
    }
}
