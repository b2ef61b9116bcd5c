import Foundation
@testable import StreamDaemon
import Testing

/// `relay:` as the config file says it, the master's mount list as Icecast writes it, and the streams made of it.
@Suite struct RelayConfigTests {
    @Test func aRelayIsReadAsWrittenAndNeedsNoStreams() throws {
        let file = try ConfigFile("""
            relay: {master: "http://127.0.0.1:8000", user: slave, password: hackme, interval: 60, onDemand: true,
                    idle: 15, sockets: run/relay}
            """)
        let config = try file.load()
        #expect(config.streams.isEmpty)
        #expect(config.relay == RelayConfig(master: URL(string: "http://127.0.0.1:8000")!, user: "slave",
                                            password: "hackme", interval: 60, onDemand: true, idle: 15,
                                            sockets: file.path("run/relay")))
        let defaults = try ConfigFile("relay: {master: \"https://master.example\", password: x, sockets: r}\nstreams: []\n")
            .load().relay
        #expect(defaults?.user == "relay")
        #expect(defaults?.interval == 120)
        #expect(defaults?.onDemand == false)
        #expect(defaults?.idle == 30)
        #expect(defaults?.mountListURL.absoluteString == "https://master.example/admin/streamlist.txt")
    }

    static let refusals = [
        ConfigLoaderTests.Refusal(name: "relay master with a path", yaml: """
            relay:
              master: http://127.0.0.1:8000/live  # ← relay.master
              password: x
              sockets: run
            """, mentions: "the master's address alone"),
        ConfigLoaderTests.Refusal(name: "relay master not HTTP", yaml: """
            relay:
              master: ftp://127.0.0.1  # ← relay.master
              password: x
              sockets: run
            """, mentions: "expected http://HOST:PORT"),
        ConfigLoaderTests.Refusal(name: "relay without a password", yaml: """
            relay:
              master: http://127.0.0.1:8000  # ← relay.password
              sockets: run
            """, mentions: "relay password"),
        ConfigLoaderTests.Refusal(name: "relay without sockets", yaml: """
            relay:
              master: http://127.0.0.1:8000  # ← relay.sockets
              password: x
            """, mentions: "missing"),
        ConfigLoaderTests.Refusal(name: "relay interval of no time", yaml: """
            relay:
              master: http://127.0.0.1:8000
              password: x
              sockets: run
              interval: 0  # ← relay.interval
            """, mentions: "expected seconds"),
        ConfigLoaderTests.Refusal(name: "no streams and no relay", yaml: """
            http: {listen: "127.0.0.1:8000"}  # ← streams
            """, mentions: "relay a master's"),
    ]

    /// Icecast 2.4's `/admin/streamlist.txt` writes each mount as `"%s\r\n"`; some versions write whole URLs.
    @Test func theMountListIsReadAsIcecastWritesIt() {
        #expect(MasterMountList.mounts(in: "/radio.mp3\r\n/jazz\r\n") == ["/radio.mp3", "/jazz"])
        #expect(MasterMountList.mounts(in: "http://master:8000/radio.mp3\nhttps://m/live/a.ogg\n")
                == ["/radio.mp3", "/live/a.ogg"])
        #expect(MasterMountList.mounts(in: "\r\n/a\r\n/a\r\nnot a mount\r\n/with space\r\n/\r\n/b") == ["/a", "/b"])
        let many = (0..<1500).map { "/m\($0)\r\n" }.joined()
        #expect(MasterMountList.mounts(in: many).count == MasterMountList.maximumMounts)
    }

    @Test func eachMountIsAStreamOfItsOwnUnlessItsNameOrMountIsTaken() {
        let relay = RelayConfig(master: URL(string: "http://master.example:8000")!, password: "p@ss:word",
                                sockets: "/run/relay")
        let configured = StreamConfig(name: "jazz", source: .standardInput, socket: SocketConfig(path: "/run/jazz.sock"),
                                      mount: "/jazz.mp3")
        let relayed = RelayedStreams(relay: relay, mounts: ["/live/radio.mp3", "/jazz.mp3", "/jazz", "/admin/stats",
                                                           "/status-json.xsl", "/hls/x", "/live-radio.mp3"],
                                     besides: [configured])
        #expect(relayed.streams.map(\.name) == ["live-radio.mp3"])
        #expect(relayed.streams.first?.mount == "/live/radio.mp3")
        #expect(relayed.streams.first?.socket.path == "/run/relay/live-radio.mp3.sock")
        guard case .http(let source) = relayed.streams.first?.source else {
            Issue.record("a relayed stream's source is the master's mount")
            return
        }
        #expect(source.url.withoutCredentials.absoluteString == "http://master.example:8000/live/radio.mp3")
        #expect(BasicCredentials(in: source.url) == BasicCredentials(user: "relay", password: "p@ss:word"))
        #expect(source.reconnect != nil)
        #expect(relayed.skipped.map(\.mount) == ["/jazz.mp3", "/jazz", "/admin/stats", "/status-json.xsl", "/hls/x",
                                                 "/live-radio.mp3"])
    }
}
