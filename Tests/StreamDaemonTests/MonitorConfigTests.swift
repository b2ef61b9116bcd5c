import AudioLoudness
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// A stream's `monitor:` and `silence:` as the config file says them, and what the loader refuses before anything
/// plays.
@Suite struct MonitorConfigTests {
    /// A CAF whose packets are of a codec no decoder reads: the IMA4 fixture, its format named QDesign's (`QDMC`),
    /// which the parser reads as any CAF of constant packets.
    static let undecodable: String = {
        let caf = Fixtures.directory.appendingPathComponent("caf/caf-ima4-44k-stereo.caf")
        var bytes = [UInt8](FileManager.default.contents(atPath: caf.path)!)
        let name = Array("ima4".utf8)
        let at = (0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == name }!
        bytes.replaceSubrange(at..<at + 4, with: Array("QDMC".utf8))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-qdmc-\(getpid()).caf").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }()

    @Test func monitorAndSilenceAreReadAsWritten() throws {
        let file = try ConfigFile("""
            streams:
              - name: jazz
                source: stdin
                socket: jazz.sock
                monitor: {loudness: true}
                silence: {below: -45.5, after: 20, back: 3}
              - name: rock
                source: "file:\(ConfigLoaderTests.music)"
                socket: rock.sock
                silence: {}
              - {name: plain, source: "file:\(ConfigLoaderTests.music)", socket: plain.sock}
            """)
        let streams = try file.load().streams
        #expect(streams[0].monitor == MonitorConfig(loudness: true, silence: SilenceRule(below: -45.5, after: 20, back: 3)))
        #expect(streams[1].monitor == MonitorConfig(loudness: false, silence: SilenceRule(below: -50, after: 10, back: 2)))
        #expect(streams[2].monitor == MonitorConfig())
        #expect(!streams[2].monitor.isActive)
    }

    static let refusals = [
        ConfigLoaderTests.Refusal(name: "monitor of a codec no decoder reads", yaml: """
            streams:
              - name: radio
                source: file:\(undecodable)
                socket: radio.sock
                monitor: {loudness: true}  # ← streams[0].monitor
            """, mentions: "cannot be decoded"),
        ConfigLoaderTests.Refusal(name: "silence of a codec no decoder reads", yaml: """
            streams:
              - name: radio
                source: file:\(undecodable)
                socket: radio.sock
                silence: {after: 5}  # ← streams[0].silence
            """, mentions: "cannot be decoded"),
        ConfigLoaderTests.Refusal(name: "silence level above full scale", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                silence:
                  below: 3  # ← streams[0].silence.below
            """, mentions: "below 0"),
        ConfigLoaderTests.Refusal(name: "silence delay of no time", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                silence:
                  back: 0  # ← streams[0].silence.back
            """, mentions: "expected seconds"),
        ConfigLoaderTests.Refusal(name: "monitor key unknown", yaml: """
            streams:
              - name: radio
                source: stdin
                socket: radio.sock
                monitor:
                  peak: true  # ← streams[0].monitor.peak
            """, mentions: "loudness"),
    ]
}
