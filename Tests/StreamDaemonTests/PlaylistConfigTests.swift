import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// A playlist's `pace` and `loop`, written beside `source:` as for a file, or inside it: one meaning either way.
@Suite struct PlaylistConfigTests {
    @Test func paceAndLoopMeanTheSameBesideTheSourceAsInIt() throws {
        let file = ConfigLoaderTests.music
        let inside = try PushSourceConfigTests.load("""
            streams:
              - name: radio
                source: {playlist: [{file: "\(file)"}], pace: 4, loop: true}
                socket: radio.sock
            """)
        let beside = try PushSourceConfigTests.load("""
            streams:
              - name: radio
                source: {playlist: [{file: "\(file)"}]}
                pace: 4
                loop: true
                socket: radio.sock
            """)
        guard case .playlist(let playlist) = beside.streams[0].source else {
            Issue.record("not a playlist: \(beside.streams[0].source)")
            return
        }
        #expect(playlist.pace == .realTime(speed: 4))
        #expect(playlist.loop)
        #expect(beside.streams[0].source == inside.streams[0].source)
    }

    /// Refusals of playlists, checked with the others by `ConfigLoaderTests`.
    static let refusals = [
        ConfigLoaderTests.Refusal(name: "pace beside and in a playlist", yaml: """
            streams:
              - name: radio
                source: {playlist: [{file: a.mp3}], pace: 2}
                pace: 4  # ← streams[0].pace
                socket: radio.sock
            """, mentions: "is given twice"),
        ConfigLoaderTests.Refusal(name: "an HTTP option beside a playlist", yaml: """
            streams:
              - name: radio
                source: {playlist: [{file: a.mp3}]}
                stallTimeout: 4  # ← streams[0].stallTimeout
                socket: radio.sock
            """, mentions: "does not apply to a playlist"),
    ]
}
