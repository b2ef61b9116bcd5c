import FixtureSupport
import Foundation
import Testing

/// A playlist of two Opus ranges on an Ogg mount: each segment a link of the chain, its pre-skip and last granule
/// position trimming it, so that ffmpeg, playing the mount, gives the two ranges joined: as long as they are,
/// sample for sample, and each within Opus' decoder error of ffmpeg's `atrim` of the file.
@Suite struct CompositionMountTests {
    static let opus = Fixtures.directory.appendingPathComponent("record/opus.opus").path

    @Test func anOggMountJoinsOpusSegmentsGaplessly() throws {
        let segments = [DaemonCompositionTests.Segment(path: Self.opus, from: 2, to: 3.5, rate: 48_000),
                        DaemonCompositionTests.Segment(path: Self.opus, from: 7.25, to: 9, rate: 48_000)]
        // The first item plays while the listener joins.
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: show
              socket: show.sock
              source:
                playlist:
                  - {file: \(Self.opus), to: 8}
                  - \(segments[0].yaml)
                  - \(segments[1].yaml)
                pace: 2
            """)
        try daemon.waitForMount(port: port, "show")
        let body = daemon.folder.appendingPathComponent("listener.ogg")
        let curl = try ToolProcess("curl", ["-sS", "--max-time", "60", "-o", body.path, "http://127.0.0.1:\(port)/show"],
                                   folder: daemon.folder, name: "curl")
        defer { curl.stop() }
        #expect(try daemon.waitForExit(timeout: 60) == 0, "\(daemon.log)")
        #expect(curl.finish().status == 0)

        let expected = try segments.flatMap { try DaemonCompositionTests.ffmpegDecode($0) }
        #expect(expected.count == segments.reduce(0) { $0 + $1.frames } * 2)
        let played = try FFmpegTool.decode(body.path)
        try #require(played.count > expected.count, "the warm-up's end, then the segments")
        // The segments are the end of what was played: where the first starts, its samples must match.
        let ours = Array(played.suffix(expected.count))
        let error = DaemonCompositionTests.largestDifference(ours, expected)
        // Opus' decoder, fed a lead-in of 480 ms before each cut, gives the whole's samples within 1e-6 of full
        // scale (measured for the writers' cuts); a frame out of place would differ by far more.
        #expect(error < 1e-4, "largest difference \(error)")
        // A link for the warm-up, then one per segment, as Xiph's own reader counts them.
        let info = try FFmpegTool.run("opusinfo", [body.path])
        let links = String(decoding: info.output, as: UTF8.self).components(separatedBy: "New logical stream").count - 1
        #expect(links == 3, "\(info.errors)")
    }
}
