import FixtureSupport
import Foundation
import AudioRecording
import StreamDaemon
import Testing

/// `config.yaml` as `ConfigLoader` reads it: every key of a valid file, and every refusal located as an editor
/// would, `file:line: key: problem`.
///
/// In the refused files, a `# ← KEY` comment marks the line the error must name and the key path it must give.
@Suite struct ConfigLoaderTests {
    static let music = Fixtures.named("l3-cbr128-joint.mp3").file.path

    @Test func aValidFileWithEveryKeyIsReadAsWritten() throws {
        let file = try ConfigFile("""
            # Relative paths are the file's folder's.
            control: control.sock
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - name: music.main
                source: file:clip.mp3
                pace: realtime
                loop: true
                socket:
                  path: sockets/music.sock
                  mode: "0660"
                  owner: root
                  group: root
                queueSeconds: 2.5
                disconnectAfter: 4
                historySeconds: 0
              - name: fast_1
                source: file:\(Self.music)
                pace: none
                socket: /tmp/fast_1.sock
              - name: Quick-2
                source: file:clip.mp3
                pace: 4
                loop: false
                socket: {path: quick.sock, mode: "644"}
              - name: slow
                source: file:./clip.mp3
                pace: 0.5
                socket: slow.sock
              - name: station
                source: https://radio.example:8443/live.mp3?id=7
                socket: station.sock
                connectTimeout: 3
                stallTimeout: 7.5
                reconnect:
                  initialDelay: 0.5
                  maxDelay: 30
                  attempts: 12
              - name: once
                source: http://radio.example/once
                socket: once.sock
                reconnect: false
              - name: again
                source: http://radio.example/again
                socket: again.sock
                reconnect: true
            """)
        try FileManager.default.copyItem(atPath: Self.music, toPath: file.path("clip.mp3"))
        let clip = file.path("clip.mp3")

        let expected = DaemonConfig(controlSocket: SocketConfig(path: file.path("control.sock")), streams: [
            StreamConfig(name: "radio", source: .standardInput, socket: SocketConfig(path: file.path("radio.sock"))),
            StreamConfig(
                name: "music.main", source: .file(path: clip, pace: .realTime(speed: 1), loop: true),
                socket: SocketConfig(
                    path: file.path("sockets/music.sock"), mode: 0o660, owner: "root", group: "root"),
                limits: SubscriberLimits(queueSeconds: 2.5, disconnectAfter: 4, historySeconds: 0)),
            StreamConfig(name: "fast_1", source: .file(path: Self.music, pace: .unpaced, loop: false),
                         socket: SocketConfig(path: "/tmp/fast_1.sock")),
            StreamConfig(name: "Quick-2", source: .file(path: clip, pace: .realTime(speed: 4), loop: false),
                         socket: SocketConfig(path: file.path("quick.sock"), mode: 0o644)),
            StreamConfig(name: "slow", source: .file(path: clip, pace: .realTime(speed: 0.5), loop: false),
                         socket: SocketConfig(path: file.path("slow.sock"))),
            StreamConfig(
                name: "station",
                source: .http(HTTPSourceConfig(
                    url: URL(string: "https://radio.example:8443/live.mp3?id=7")!, connectTimeout: 3, stallTimeout: 7.5,
                    reconnect: ReconnectPolicy(initialDelay: 0.5, maximumDelay: 30, attempts: 12))),
                socket: SocketConfig(path: file.path("station.sock"))),
            StreamConfig(
                name: "once", source: .http(HTTPSourceConfig(url: URL(string: "http://radio.example/once")!, reconnect: nil)),
                socket: SocketConfig(path: file.path("once.sock"))),
            // The defaults: 10 s to connect, 15 s of silence, reconnecting from 1 s up to 60 s for ever.
            StreamConfig(
                name: "again",
                source: .http(HTTPSourceConfig(
                    url: URL(string: "http://radio.example/again")!, connectTimeout: 10, stallTimeout: 15,
                    reconnect: ReconnectPolicy(initialDelay: 1, maximumDelay: 60, attempts: nil))),
                socket: SocketConfig(path: file.path("again.sock"))),
        ])
        #expect(try file.load() == expected)
    }

    @Test(arguments: [
        ("127.0.0.1:9464", MetricsAddress.tcp(host: "127.0.0.1", port: 9464)),
        ("[::1]:9100", .tcp(host: "::1", port: 9100)),
        ("0.0.0.0:1", .tcp(host: "0.0.0.0", port: 1)),
    ])
    func metricsListenOnAnAddressAndPort(_ text: String, _ address: MetricsAddress) throws {
        let file = try ConfigFile("metrics: \"\(text)\"\nstreams:\n  - {name: radio, source: stdin, socket: radio.sock}\n")
        #expect(try file.load().metrics == address)
    }

    @Test func metricsOnASocketPathAreTakenFromTheFilesFolder() throws {
        let file = try ConfigFile("metrics: run/metrics.sock\nstreams:\n  - {name: radio, source: stdin, socket: radio.sock}\n")
        #expect(try file.load().metrics == .unix(path: file.path("run/metrics.sock")))
        let none = try ConfigFile("streams:\n  - {name: radio, source: stdin, socket: radio.sock}\n")
        #expect(try none.load().metrics == nil)
    }

    /// `writeInterval` is a latency budget: 0 writes every chunk at once, and a second is the most it may be.
    @Test func aWriteIntervalIsReadAsWrittenOrDefaults() throws {
        let file = try ConfigFile("""
            streams:
              - {name: batched, source: stdin, socket: batched.sock, writeInterval: 0.25}
              - {name: immediate, source: "file:\(Self.music)", socket: immediate.sock, writeInterval: 0}
              - {name: default, source: "file:\(Self.music)", socket: default.sock}
            """)
        let intervals = try file.load().streams.map(\.limits.writeInterval)
        #expect(intervals == [0.25, 0, SubscriberLimits.defaultWriteInterval])
    }

    /// `record:` as written, its relative path taken from the file's folder.
    @Test func aRecordingIsReadAsWritten() throws {
        let file = try ConfigFile("""
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                record:
                  path: archive/%Y-%m-%d/{stream}-%H.mp3
                  every: 3600
                  splitOnTitle: true
                  keep: {days: 42, bytes: 1000000000}
              - {name: plain, source: "file:\(Self.music)", socket: plain.sock}
            """)
        let streams = try file.load().streams
        let record = try #require(streams[0].record)
        #expect(record.template.template == file.path("archive/%Y-%m-%d/{stream}-%H.mp3"))
        #expect(record.template.container == .mp3)
        #expect(record.every == 3600)
        #expect(record.splitOnTitle)
        #expect(record.keep == Retention(days: 42, bytes: 1_000_000_000))
        #expect(streams[1].record == nil)
    }

    /// A file the loader must refuse, and what the message must mention besides its line and key.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let yaml: String
        let mentions: String

        var testDescription: String { name }

        /// The 1-based line and the key path of the `# ← KEY` comment, or line 1 and no key when there is none.
        var expectedLocation: (line: Int, key: String) {
            let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                if let marker = line.range(of: "# ←") {
                    return (index + 1, line[marker.upperBound...].trimmingCharacters(in: .whitespaces))
                }
            }
            return (1, "")
        }
    }

    static let recordRefusals = [
        Refusal(name: "record path with an extension no container has", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                record:
                  path: rec/{stream}.wma  # ← streams[0].record.path
            """, mentions: "no container is named .wma"),
        Refusal(name: "record of an MP3 file into FLAC", yaml: """
            streams:
              - name: radio
                source: file:\(music)
                socket: radio.sock
                record:
                  path: rec/{stream}.flac  # ← streams[0].record.path
            """, mentions: ".flac cannot hold the MP3 audio of"),
        Refusal(name: "record every 0", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                record:
                  path: rec/{stream}.mp3
                  every: 0  # ← streams[0].record.every
            """, mentions: "whole seconds"),
        Refusal(name: "record keep without a limit", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                record:
                  path: rec/{stream}.mp3
                  keep: {}  # ← streams[0].record.keep
            """, mentions: "days, bytes or both"),
        Refusal(name: "record without a path", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                record:
                  every: 60  # ← streams[0].record.path
            """, mentions: "missing"),
    ]

    static let refusals = [
        Refusal(name: "YAML syntax error", yaml: """
            streams:
              - name: radio
                source: stdin: now  # ←
                socket: radio.sock
            """, mentions: "YAML syntax"),
        Refusal(name: "unknown top-level key", yaml: """
            control: control.sock
            colour: red  # ← colour
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "unknown key"),
        Refusal(name: "unknown stream key", yaml: """
            streams:
              - name: radio
                source: stdin
                bitrate: 128  # ← streams[0].bitrate
                socket: radio.sock
            """, mentions: "unknown key"),
        Refusal(name: "duplicate key", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                source: stdin  # ← source
            """, mentions: "duplicate key"),
        Refusal(name: "unknown socket key", yaml: """
            streams:
              - name: radio
                source: stdin
                socket:
                  path: radio.sock
                  colour: red  # ← streams[0].socket.colour
            """, mentions: "unknown key"),
        Refusal(name: "missing name", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - source: file:\(music)  # ← streams[1].name
                socket: music.sock
            """, mentions: "missing"),
        Refusal(name: "missing source", yaml: """
            streams:
              - name: radio  # ← streams[0].source
                socket: radio.sock
            """, mentions: "missing"),
        Refusal(name: "missing socket", yaml: """
            streams:
              - name: radio  # ← streams[0].socket
                source: stdin
            """, mentions: "missing"),
        Refusal(name: "missing socket path", yaml: """
            streams:
              - name: radio
                source: stdin
                socket:
                  mode: "0660"  # ← streams[0].socket.path
            """, mentions: "missing"),
        Refusal(name: "name with a space", yaml: """
            streams:
              - name: my radio  # ← streams[0].name
                source: stdin
                socket: radio.sock
            """, mentions: "my radio"),
        Refusal(name: "unknown pace", yaml: """
            streams:
              - name: music
                source: file:\(music)
                pace: fast  # ← streams[0].pace
                socket: music.sock
            """, mentions: "realtime"),
        Refusal(name: "pace too slow to compute", yaml: """
            streams:
              - name: music
                source: file:\(music)
                pace: 0.000000000001  # ← streams[0].pace
                socket: music.sock
            """, mentions: "0.01 to 1000"),
        Refusal(name: "disconnectAfter beyond a day", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                disconnectAfter: 1e10  # ← streams[0].disconnectAfter
            """, mentions: "at most 86400"),
        Refusal(name: "zero pace", yaml: """
            streams:
              - name: music
                source: file:\(music)
                pace: 0  # ← streams[0].pace
                socket: music.sock
            """, mentions: "realtime"),
        Refusal(name: "pace with stdin", yaml: """
            streams:
              - name: radio
                source: stdin
                pace: realtime  # ← streams[0].pace
                socket: radio.sock
            """, mentions: "file"),
        Refusal(name: "loop with stdin", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                loop: true  # ← streams[0].loop
            """, mentions: "file"),
        Refusal(name: "loop not a boolean", yaml: """
            streams:
              - name: music
                source: file:\(music)
                loop: sometimes  # ← streams[0].loop
                socket: music.sock
            """, mentions: "true or false"),
        Refusal(name: "mode not octal", yaml: """
            streams:
              - name: radio
                source: stdin
                socket:
                  path: radio.sock
                  mode: "0999"  # ← streams[0].socket.mode
            """, mentions: "0999"),
        Refusal(name: "negative queueSeconds", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                queueSeconds: -1  # ← streams[0].queueSeconds
            """, mentions: "seconds"),
        Refusal(name: "zero disconnectAfter", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                disconnectAfter: 0  # ← streams[0].disconnectAfter
            """, mentions: "seconds"),
        Refusal(name: "negative historySeconds", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                historySeconds: -2  # ← streams[0].historySeconds
            """, mentions: "seconds"),
        Refusal(name: "negative writeInterval", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                writeInterval: -0.1  # ← streams[0].writeInterval
            """, mentions: "at most 1"),
        Refusal(name: "writeInterval over a second", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                writeInterval: 1.5  # ← streams[0].writeInterval
            """, mentions: "at most 1"),
        Refusal(name: "duplicate stream names", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - name: radio  # ← streams[1].name
                source: file:\(music)
                socket: music.sock
            """, mentions: "radio"),
        Refusal(name: "duplicate socket paths", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: shared.sock
              - name: music
                source: file:\(music)
                socket: ./shared.sock  # ← streams[1].socket
            """, mentions: "radio"),
        Refusal(name: "a stream on the control socket", yaml: """
            control: control.sock
            streams:
              - name: radio
                source: stdin
                socket: control.sock  # ← streams[0].socket
            """, mentions: "control"),
        Refusal(name: "metrics on a malformed host name", yaml: """
            metrics: local_host:9464  # ← metrics
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "IP:PORT"),
        Refusal(name: "metrics port out of range", yaml: """
            metrics: 127.0.0.1:65536  # ← metrics
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "65536"),
        Refusal(name: "metrics on the control socket", yaml: """
            control: control.sock
            metrics: control.sock  # ← metrics
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "control"),
        Refusal(name: "a stream on the metrics socket", yaml: """
            metrics: metrics.sock
            streams:
              - name: radio
                source: stdin
                socket: metrics.sock  # ← streams[0].socket
            """, mentions: "metrics"),
        Refusal(name: "socket path too long", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: \(String(repeating: "s", count: 108)).sock  # ← streams[0].socket
            """, mentions: "longer than 102 bytes"),
        Refusal(name: "two stdin streams", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - name: talk
                source: stdin  # ← streams[1].source
                socket: talk.sock
            """, mentions: "stdin"),
        Refusal(name: "missing source file", yaml: """
            streams:
              - name: music
                source: file:missing.mp3  # ← streams[0].source
                socket: music.sock
            """, mentions: "missing.mp3"),
        Refusal(name: "URL without a host", yaml: """
            streams:
              - name: radio
                source: http:///stream  # ← streams[0].source
                socket: radio.sock
            """, mentions: "URL"),
        Refusal(name: "stallTimeout with a file", yaml: """
            streams:
              - name: music
                source: file:\(music)
                stallTimeout: 5  # ← streams[0].stallTimeout
                socket: music.sock
            """, mentions: "http"),
        Refusal(name: "pace with HTTP", yaml: """
            streams:
              - name: radio
                source: https://radio.example/stream
                pace: realtime  # ← streams[0].pace
                socket: radio.sock
            """, mentions: "file"),
        Refusal(name: "reconnect not a boolean", yaml: """
            streams:
              - name: radio
                source: http://radio.example/stream
                reconnect: sometimes  # ← streams[0].reconnect
                socket: radio.sock
            """, mentions: "true or false"),
        Refusal(name: "unknown reconnect key", yaml: """
            streams:
              - name: radio
                source: http://radio.example/stream
                reconnect:
                  initialDelay: 1
                  maxDelays: 60  # ← streams[0].reconnect.maxDelays
                socket: radio.sock
            """, mentions: "initialDelay"),
        Refusal(name: "maxDelay below initialDelay", yaml: """
            streams:
              - name: radio
                source: http://radio.example/stream
                reconnect:
                  initialDelay: 10
                  maxDelay: 5  # ← streams[0].reconnect.maxDelay
                socket: radio.sock
            """, mentions: "initialDelay"),
        Refusal(name: "zero attempts", yaml: """
            streams:
              - name: radio
                source: http://radio.example/stream
                reconnect: {attempts: 0}  # ← streams[0].reconnect.attempts
                socket: radio.sock
            """, mentions: "attempts"),
        Refusal(name: "negative connectTimeout", yaml: """
            streams:
              - name: radio
                source: http://radio.example/stream
                connectTimeout: -1  # ← streams[0].connectTimeout
                socket: radio.sock
            """, mentions: "seconds"),
        Refusal(name: "unknown source", yaml: """
            streams:
              - name: radio
                source: radio.mp3  # ← streams[0].source
                socket: radio.sock
            """, mentions: "radio.mp3"),
        Refusal(name: "empty file", yaml: "", mentions: "empty"),
        Refusal(name: "only comments", yaml: "# streams: none yet\n", mentions: "empty"),
        Refusal(name: "not a mapping", yaml: """
            - radio  # ←
            """, mentions: "mapping"),
        Refusal(name: "no streams", yaml: """
            control: control.sock  # ← streams
            """, mentions: "missing"),
        Refusal(name: "streams not a list", yaml: """
            control: control.sock
            streams: radio  # ← streams
            """, mentions: "list"),
        Refusal(name: "empty streams list", yaml: """
            streams: []  # ← streams
            """, mentions: "list"),
        Refusal(name: "http on a malformed host name", yaml: """
            http:
              listen: -radio.example:8000  # ← http.listen
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "IP:PORT"),
        Refusal(name: "http without listen", yaml: """
            http: {relayPassword: x}  # ← http.listen
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "missing"),
        Refusal(name: "unknown http key", yaml: """
            http:
              listen: 127.0.0.1:8000
              port: 8000  # ← http.port
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "unknown key"),
        Refusal(name: "mount without a slash", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                mount: radio.mp3  # ← streams[0].mount
            """, mentions: "/jazz.mp3"),
        Refusal(name: "two streams on one mount", yaml: """
            http: {listen: 127.0.0.1:8000}
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
              - name: other
                source: file:\(music)
                socket: other.sock
                mount: /radio  # ← streams[1].mount
            """, mentions: "stream 'radio'"),
        Refusal(name: "a mount on the server's own path", yaml: """
            http: {listen: 127.0.0.1:8000}
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                mount: /status.json  # ← streams[0].mount
            """, mentions: "server's own"),
        Refusal(name: "output without a password", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                outputs:
                  - icecast: http://127.0.0.1:8000/live.mp3  # ← streams[0].outputs[0].icecast
            """, mentions: "no password"),
        Refusal(name: "output to no mount", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                outputs:
                  - icecast: http://source:x@127.0.0.1:8000  # ← streams[0].outputs[0].icecast
            """, mentions: "MOUNT"),
        Refusal(name: "output password file missing", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                outputs:
                  - icecast: http://127.0.0.1:8000/live.mp3
                    passwordFile: no-such-file  # ← streams[0].outputs[0].passwordFile
            """, mentions: "cannot read"),
        Refusal(name: "http not a boolean", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                http: sometimes  # ← streams[0].http
            """, mentions: "true or false"),
        Refusal(name: "socket owner not a user", yaml: """
            streams:
              - name: radio
                source: stdin
                socket:
                  path: radio.sock
                  owner: no-such-user-here  # ← streams[0].socket.owner
            """, mentions: "no user no-such-user-here"),
        Refusal(name: "control socket group not a group", yaml: """
            control:
              path: control.sock
              group: no-such-group-here  # ← control.group
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
            """, mentions: "no group no-such-group-here"),
        Refusal(name: "file source naming a folder", yaml: """
            streams:
              - name: radio
                source: "file:."  # ← streams[0].source
                socket: radio.sock
            """, mentions: "is a folder, not a file"),
    ]

    @Test func outputsTakeTheirPasswordFromTheURLOrAFile() throws {
        let file = try ConfigFile("""
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                outputs:
                  - icecast: http://source:hackme@icecast.example:8000/live.mp3
                  - icecast: http://dj@127.0.0.1/other.aac
                    passwordFile: secret
                    reconnect: {initialDelay: 2, maxDelay: 20}
            """)
        try "from file\nignored\n".write(toFile: file.path("secret"), atomically: true, encoding: .utf8)
        let outputs = try file.load().streams[0].outputs
        #expect(outputs == [
            IcecastOutputConfig(url: URL(string: "http://icecast.example:8000/live.mp3")!, user: "source",
                                password: "hackme"),
            IcecastOutputConfig(url: URL(string: "http://127.0.0.1/other.aac")!, user: "dj", password: "from file",
                                reconnect: ReconnectPolicy(initialDelay: 2, maximumDelay: 20)),
        ])
    }

    @Test func theHTTPServerAndEachStreamsMountAreReadAsWritten() throws {
        let file = try ConfigFile("""
            http: {listen: "[::1]:8000", relayPassword: s3cret, headerTimeout: 2.5, formatWait: 30, maxListeners: 50}
            streams:
              - {name: radio, source: stdin, socket: radio.sock}
              - {name: jazz, source: "file:\(Self.music)", socket: jazz.sock, mount: /jazz.mp3}
              - {name: hidden, source: "file:\(Self.music)", socket: hidden.sock, mount: /radio, http: false}
            """)
        let config = try file.load()
        #expect(config.http == HTTPServerConfig(host: "::1", port: 8000, relayPassword: "s3cret", headerTimeout: 2.5,
                                                formatWait: 30, maxListeners: 50))
        #expect(config.streams.map(\.mount) == ["/radio", "/jazz.mp3", "/radio"])
        #expect(config.streams.map(\.http) == [true, true, false])
        let none = try ConfigFile("streams:\n  - {name: radio, source: stdin, socket: radio.sock}\n")
        #expect(try none.load().http == nil)
        let named = try ConfigFile("""
            http: {listen: "localhost:8000"}
            metrics: radio-1.example.org:9464
            streams: [{name: radio, source: stdin, socket: radio.sock}]
            """)
        #expect(try named.load().http == HTTPServerConfig(host: "localhost", port: 8000))
        #expect(try named.load().metrics == .tcp(host: "radio-1.example.org", port: 9464))
    }

    /// A configuration path naming a device or an endless pipe is refused after a bounded read: a reload from it
    /// must not fill the memory of the running daemon.
    @Test func aFileWithoutEndIsRefusedAfterABoundedRead() throws {
        let error = try #require(throws: ConfigError.self) { try ConfigLoader(file: "/dev/zero").load() }
        #expect(error.file == "/dev/zero")
        #expect(error.problem.contains("larger than 16 MiB"))
    }

    @Test(arguments: refusals + recordRefusals + PushSourceConfigTests.refusals + PlaylistConfigTests.refusals
                     + HLSConfigTests.refusals + MonitorConfigTests.refusals + RelayConfigTests.refusals
                     + ListenerPolicyConfigTests.refusals)
    func aRefusalNamesTheFileLineAndKey(_ refusal: Refusal) throws {
        let file = try ConfigFile(refusal.yaml)
        let error = try #require(throws: ConfigError.self) { try file.load() }
        let expected = refusal.expectedLocation
        #expect(error.file == file.path)
        #expect(error.line == expected.line)
        #expect(error.key == expected.key)
        #expect(error.description.hasPrefix(Self.location(file.path, expected)))
        #expect(error.problem.contains(refusal.mentions))
        #expect(!error.description.contains("\n"))
    }

    /// A refused URL is echoed so the operator sees what was read, but never its password: errors reach the log.
    @Test(arguments: ["http://dj:s3cret@/live", "https://dj:s3cret@radio.example:99999/live",
                      "HTTPS://dj:s3cret@radio.example/live", "icecast://dj:s3cret@radio.example/live"])
    func aRefusedURLIsShownWithoutItsPassword(_ url: String) throws {
        let file = try ConfigFile("streams:\n  - {name: radio, source: \"\(url)\", socket: radio.sock}\n")
        let error = try #require(throws: ConfigError.self) { try file.load() }
        #expect(!error.description.contains("s3cret"))
        #expect(error.key == "streams[0].source")
    }

    @Test func checkRefusesABadFileWithOneLineOnStandardError() throws {
        let refusal = Self.refusals.first { $0.name == "unknown pace" }!
        let daemon = try DaemonHarness(config: refusal.yaml, arguments: ["--check"])
        #expect(try daemon.waitForExit() != 0)
        let location = Self.location(daemon.path("config.yaml"), refusal.expectedLocation)
        #expect(daemon.log.hasPrefix(location))
        #expect(daemon.log.hasSuffix("\n"))
        #expect(daemon.log.filter { $0 == "\n" }.count == 1)
    }

    /// `--check` goes on past the first problem and lists each one, in the file's order, one a line; starting
    /// refuses the same file.
    @Test func checkListsEveryProblemOfTheFile() throws {
        let yaml = """
            metrics: 127.0.0.1:99999  # ← metrics
            streams:
              - name: music
                source: file:\(Self.music)
                pace: fast  # ← streams[0].pace
                socket: music.sock
                queueSeconds: -1  # ← streams[0].queueSeconds
              - name: radio
                source: "file:."  # ← streams[1].source
                socket: {path: radio.sock, owner: no-such-user-here}  # ← streams[1].socket.owner
            """
        let expected = yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
            index, line in line.range(of: "# ← ").map { (index + 1, String(line[$0.upperBound...])) }
        }
        let daemon = try DaemonHarness(config: yaml, arguments: ["--check"])
        #expect(try daemon.waitForExit() != 0)
        let lines = daemon.log.split(separator: "\n").map(String.init)
        #expect(expected.count == 5)
        #expect(lines.count == expected.count, "\(lines)")
        for (line, location) in zip(lines, expected) {
            #expect(line.hasPrefix(Self.location(daemon.path("config.yaml"), location)), "\(line)")
        }

        let started = try DaemonHarness(config: yaml)
        #expect(try started.waitForExit() == 1)
        #expect(started.log.contains(Self.location(started.path("config.yaml"), expected[0])), "\(started.log)")
    }

    /// Clashes between streams (names, sockets, stdin, mounts, push passwords) are listed with every other
    /// problem, each once: a duplicate name hid the next problem until it was fixed, and a stream with a bad value
    /// hid every clash.
    @Test func checkListsEveryClashBetweenStreamsAtOnce() throws {
        let yaml = """
            http: {listen: "127.0.0.1:8000"}
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
              - name: radio  # ← streams[1].name
                source: stdin  # ← streams[1].source
                socket: radio.sock  # ← streams[1].socket
                mount: /radio  # ← streams[1].mount
              - name: live
                source: push  # ← streams[2].source
                socket: live.sock
              - name: music
                source: file:\(Self.music)
                pace: fast  # ← streams[3].pace
                socket: radio.sock
            """
        let expected = yaml.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
            index, line in line.range(of: "# ← ").map { (index + 1, String(line[$0.upperBound...])) }
        }
        let daemon = try DaemonHarness(config: yaml, arguments: ["--check"])
        #expect(try daemon.waitForExit() != 0)
        #expect(daemon.log.hasSuffix("\n"))
        let lines = daemon.log.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(lines)")
        for (line, location) in zip(lines, expected) {
            #expect(line.hasPrefix(Self.location(daemon.path("config.yaml"), location)), "\(line)")
        }
    }

    @Test func checkAcceptsAGoodFile() throws {
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
            """, arguments: ["--check"])
        #expect(try daemon.waitForExit() == 0)
        #expect(daemon.log.isEmpty)
        // Checking runs nothing: no socket was made.
        #expect(!FileManager.default.fileExists(atPath: daemon.path("radio.sock")))
    }

    /// A named pipe as a recorded file source is not read while checking: opening it waited for a writer, for ever.
    @Test func checkingARecordedPipeWaitsForNoWriter() throws {
        let folder = try DaemonHarness.makeFolder()
        #expect(mkfifo(folder.appendingPathComponent("live.fifo").path, 0o600) == 0)
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: file:live.fifo
                socket: radio.sock
                record: {path: "rec/{stream}-%H.mp3"}
            """, folder: folder, arguments: ["--check"])
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// How a message starts: `file:line: key: `, or `file:line: ` for the document itself.
    static func location(_ file: String, _ expected: (line: Int, key: String)) -> String {
        expected.key.isEmpty ? "\(file):\(expected.line): " : "\(file):\(expected.line): \(expected.key): "
    }
}

/// A configuration file in a fresh folder of its own, removed with it.
final class ConfigFile {
    let folder: URL

    init(_ yaml: String) throws {
        folder = try DaemonHarness.makeFolder()
        try yaml.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A path in the folder: where a relative path in the file must lead.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    var path: String { path("config.yaml") }

    func load() throws -> DaemonConfig { try ConfigLoader(file: path).load() }
}
