import Foundation
import StreamDaemon
import Testing

/// `maxListeners`, `maxListenerDuration` and `overflow`, on a stream and in `http:`, as the config file says them.
@Suite struct ListenerPolicyConfigTests {
    @Test func aStreamsPolicyIsReadAsWrittenAndTheServersToo() throws {
        let file = try ConfigFile("""
            http: {listen: "127.0.0.1:8000", maxListenerDuration: 3600, overflow: ["http://edge1:8000", "https://edge2"]}
            streams:
              - {name: jazz, source: stdin, socket: jazz.sock, maxListeners: 100, overflow: []}
              - {name: rock, source: "file:\(ConfigLoaderTests.music)", socket: rock.sock, maxListenerDuration: 60}
            """)
        let config = try file.load()
        #expect(config.http?.listeners == ListenerPolicy(maxListenerDuration: 3600, overflow: [
            URL(string: "http://edge1:8000")!, URL(string: "https://edge2")!,
        ]))
        #expect(config.streams[0].listeners == ListenerPolicy(maxListeners: 100, overflow: []))
        #expect(config.streams[1].listeners == ListenerPolicy(maxListenerDuration: 60))
    }

    static let refusals = [
        ConfigLoaderTests.Refusal(name: "overflow peer with a path", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                overflow:
                  - http://edge1:8000/radio  # ← streams[0].overflow[0]
            """, mentions: "a server's address"),
        ConfigLoaderTests.Refusal(name: "no listeners on a mount", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                maxListeners: 0  # ← streams[0].maxListeners
            """, mentions: "1 or more"),
        ConfigLoaderTests.Refusal(name: "server overflow not a list", yaml: """
            http:
              listen: "127.0.0.1:8000"
              overflow: http://edge1:8000  # ← http.overflow
            streams: [{name: radio, source: stdin, socket: radio.sock}]
            """, mentions: "expected a list"),
    ]
}
