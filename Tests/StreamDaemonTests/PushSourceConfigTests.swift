import Foundation
import StreamDaemon
import Testing

/// `source: push` in `config.yaml`: its password (the stream's own, else `http.sourcePassword`) and stall timeout,
/// and the refusals of a push stream that no source client could reach.
@Suite struct PushSourceConfigTests {
    @Test func aPushStreamTakesItsOwnPasswordOrTheServers() throws {
        let config = try Self.load("""
            http: {listen: "127.0.0.1:8000", sourcePassword: house}
            streams:
              - {name: live, source: push, socket: live.sock}
              - {name: guest, source: push, socket: guest.sock, sourcePassword: guest, stallTimeout: 4}
            """)
        #expect(config.http?.sourcePassword == "house")
        #expect(config.streams[0].source == .push(PushSourceConfig(password: "house", stallTimeout: 15)))
        #expect(config.streams[1].source == .push(PushSourceConfig(password: "guest", stallTimeout: 4)))
        #expect(config.streams[0].mount == "/live")
    }

    @Test func aPushStreamNeedsNoServerPasswordWhenItHasItsOwn() throws {
        let config = try Self.load("""
            http: {listen: "127.0.0.1:8000"}
            streams:
              - {name: live, source: push, socket: live.sock, sourcePassword: own}
            """)
        #expect(config.streams[0].source == .push(PushSourceConfig(password: "own")))
    }

    /// Refusals of push streams, checked with the others by `ConfigLoaderTests`.
    static let refusals = [
        ConfigLoaderTests.Refusal(name: "push with a codec not known", yaml: """
            http: {listen: "127.0.0.1:8000", sourcePassword: x}
            streams:
              - name: live
                source: push
                socket: live.sock
                codec: wma  # ← streams[0].codec
            """, mentions: "expected one of mp3, mp2, aac, opus, vorbis, flac, ac3, eac3, got 'wma'"),
        ConfigLoaderTests.Refusal(name: "codec for a file", yaml: """
            streams:
              - name: live
                source: file:/dev/null
                socket: live.sock
                codec: mp3  # ← streams[0].codec
            """, mentions: "applies to push sources only"),
        ConfigLoaderTests.Refusal(name: "push without a password", yaml: """
            http: {listen: "127.0.0.1:8000"}
            streams:
              - name: live
                source: push  # ← streams[0].source
                socket: live.sock
            """, mentions: "set http.sourcePassword, or sourcePassword for this stream"),
        ConfigLoaderTests.Refusal(name: "push without the HTTP server", yaml: """
            streams:
              - name: live
                source: push  # ← streams[0].source
                socket: live.sock
                sourcePassword: x
            """, mentions: "needs the http: server"),
        ConfigLoaderTests.Refusal(name: "push without its mount", yaml: """
            http: {listen: "127.0.0.1:8000", sourcePassword: x}
            streams:
              - name: live
                source: push
                socket: live.sock
                http: false  # ← streams[0].http
            """, mentions: "needs its mount on the HTTP server"),
        ConfigLoaderTests.Refusal(name: "sourcePassword of an HTTP source", yaml: """
            streams:
              - name: radio
                source: http://radio.example/live
                socket: radio.sock
                sourcePassword: x  # ← streams[0].sourcePassword
            """, mentions: "applies to push sources only"),
        ConfigLoaderTests.Refusal(name: "connectTimeout of a push source", yaml: """
            http: {listen: "127.0.0.1:8000", sourcePassword: x}
            streams:
              - name: live
                source: push
                socket: live.sock
                connectTimeout: 3  # ← streams[0].connectTimeout
            """, mentions: "applies to http(s) sources only"),
        ConfigLoaderTests.Refusal(name: "stallTimeout of a file", yaml: """
            streams:
              - name: radio
                source: file:\(ConfigLoaderTests.music)
                socket: radio.sock
                stallTimeout: 3  # ← streams[0].stallTimeout
            """, mentions: "applies to http(s) and push sources only"),
        ConfigLoaderTests.Refusal(name: "empty sourcePassword", yaml: """
            http:
              listen: "127.0.0.1:8000"
              sourcePassword: ""  # ← http.sourcePassword
            streams:
              - {name: live, source: push, socket: live.sock}
            """, mentions: "expected a password"),
    ]

    static func load(_ yaml: String) throws -> DaemonConfig {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("config.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try ConfigLoader(file: path).load()
    }
}
