import AudioHLS
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// A stream's `hls:` as the config file says it, and what the loader refuses before anything plays.
@Suite struct HLSConfigTests {
    static let vorbis = Fixtures.directory.appendingPathComponent("record/vorbis.ogg").path

    @Test func hlsIsReadAsWritten() throws {
        let file = try ConfigFile("""
            streams:
              - name: jazz
                source: stdin
                socket: jazz.sock
                hls: {segment: 4, part: 1, window: 30, container: fmp4, path: hls/jazz, group: jazz-all}
              - name: rock
                source: "file:\(ConfigLoaderTests.music)"
                socket: rock.sock
                hls: {}
              - {name: plain, source: "file:\(ConfigLoaderTests.music)", socket: plain.sock}
            """)
        let streams = try file.load().streams
        #expect(streams[0].hls == HLSConfig(settings: HLSSettings(segment: 4, part: 1, window: 30, container: .fmp4),
                                            path: file.path("hls/jazz"), group: "jazz-all"))
        #expect(streams[1].hls == HLSConfig())
        #expect(streams[2].hls == nil)
    }

    static let refusals = [
        ConfigLoaderTests.Refusal(name: "hls of a Vorbis file", yaml: """
            streams:
              - name: radio
                source: file:\(vorbis)
                socket: radio.sock
                hls: {segment: 2}  # ← streams[0].hls
            """, mentions: "HLS carries no Vorbis audio"),
        ConfigLoaderTests.Refusal(name: "hls of an MP3 file as fmp4", yaml: """
            streams:
              - name: radio
                source: file:\(ConfigLoaderTests.music)
                socket: radio.sock
                hls: {container: fmp4}  # ← streams[0].hls
            """, mentions: "fmp4 segments cannot carry MP3 audio"),
        ConfigLoaderTests.Refusal(name: "hls container unknown", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                hls:
                  container: ts  # ← streams[0].hls.container
            """, mentions: "packed or fmp4"),
        ConfigLoaderTests.Refusal(name: "hls part longer than the segment", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                hls: {segment: 1, part: 2}  # ← streams[0].hls
            """, mentions: "part must be 0"),
        ConfigLoaderTests.Refusal(name: "hls window shorter than three segments", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                hls: {segment: 6, window: 10}  # ← streams[0].hls
            """, mentions: "at least three segments"),
        ConfigLoaderTests.Refusal(name: "hls group that is not a path segment", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                hls:
                  group: a/b  # ← streams[0].hls.group
            """, mentions: "use letters"),
    ]
}
