import FixtureSupport
import Foundation
import Testing

/// A playlist of two Opus ranges on an Ogg mount: each segment a link of the chain, its pre-skip and last granule
/// position trimming it, so that players join them gaplessly: Xiph's decoder plays the two ranges joined,
/// each within Opus' decoder error of the whole file's samples, and as long as ffmpeg plays them.
@Suite struct CompositionMountTests {
    static let opus = Fixtures.directory.appendingPathComponent("record/opus.opus").path

    @Test func anOggMountJoinsOpusSegmentsGaplessly() throws {
        let segments = [DaemonCompositionTests.Segment(path: Self.opus, from: 2, to: 3.5, rate: 48_000),
                        DaemonCompositionTests.Segment(path: Self.opus, from: 7.25, to: 9, rate: 48_000)]
        // The first item plays while the listener joins; the last, one second, follows, so that both segments
        // are compared across a join at each end.
        let last = DaemonCompositionTests.Segment(path: Self.opus, from: 0, to: 1, rate: 48_000)
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: show
              socket: show.sock
              source:
                playlist:
                  - {file: \(Self.opus), to: 8}
                  - \(segments[0].yaml)
                  - \(segments[1].yaml)
                  - \(last.yaml)
                pace: 2
            """)
        let body = try Self.listen(to: daemon, port: port, saving: "listener.ogg")

        // Xiph's reference decoder (libopus) plays the mount: the segments are the end of what it plays, before the
        // last item, each within Opus' decoder error of the same decoder's output for the whole file. A frame too
        // many or too few at a join would put the first segment out of place.
        let whole = try Self.opusdec(Self.opus, folder: daemon.folder)
        let expected = segments.flatMap { whole[$0.startSample * 2..<$0.endSample * 2] }
        #expect(expected.count == segments.reduce(0) { $0 + $1.frames } * 2)
        let played = try Self.opusdec(body.path, folder: daemon.folder)
        try #require(played.count > expected.count + last.frames * 2, "the warm-up's end, then the segments")
        let ours = Array(played.dropLast(last.frames * 2).suffix(expected.count))
        let error = DaemonCompositionTests.largestDifference(ours, expected)
        // Measured: under 1e-5 of full scale, as the writers' cuts with a lead-in of 480 ms.
        #expect(error < 1e-4, "largest difference \(error)")
        // ffmpeg plays the links as long: each trimmed at both ends. (Its own decoder's resampler, drained at a
        // link's end, changes the last 0.5 ms of a SILK link, so its samples are not compared.)
        #expect(try FFmpegTool.decode(body.path).count == played.count)
        // A link for the warm-up, then one per item, as Xiph's own reader counts them (it complains of the
        // pages missed before the listener joined, as of any live stream).
        let info = try FFmpegTool.runToEnd("opusinfo", [body.path])
        let links = String(decoding: info.output, as: UTF8.self).components(separatedBy: "New logical stream").count - 1
        #expect(links == 4, "\(info.errors)")
    }

    /// An MP3 mount, whose listeners are told no trims, gets each segment from the packet that holds its start:
    /// the lead-in that packet subscribers get for their decoders would play before it. Packets as ffprobe
    /// lists them, the start and end placed after the encoder delay ffprobe reads from the LAME tag.
    @Test func anMP3MountGetsEachSegmentFromItsStart() throws {
        let mp3 = DaemonCompositionTests.mp3
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: show
              socket: show.sock
              source: {playlist: [{file: \(mp3), to: 8}, {file: \(mp3), from: 4.25, to: 6.5}], pace: 2}
            """)
        let body = try Self.listen(to: daemon, port: port, saving: "listener.mp3")

        let probe = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=start_time:packet=pos,size",
                                                   "-of", "csv=p=0", mp3]).output
        let lines = String(decoding: probe, as: UTF8.self).split(separator: "\n")
        let packets = lines.compactMap { line -> Range<Int>? in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? fields[1]..<fields[1] + fields[0] : nil
        }
        let startTime = try #require(lines.first { $0.contains(".") }.flatMap { Double($0.prefix { $0 != "," }) })
        let delay = Int((startTime * 44_100).rounded())
        // The packets that hold a range's first frame and its last.
        let first = { (seconds: Double) in (Int((seconds * 44_100).rounded()) + delay) / 1152 }
        let last = { (seconds: Double) in (Int((seconds * 44_100).rounded()) + delay - 1) / 1152 }
        let file = try Data(contentsOf: URL(fileURLWithPath: mp3))
        let bytes = { (indexes: ClosedRange<Int>) in indexes.reduce(Data()) { $0 + file[packets[$1]] } }
        // The warm-up's last packet, then the segment's packets from the one that holds its start.
        let expected = bytes(last(8)...last(8)) + bytes(first(4.25)...last(6.5))
        let received = try Data(contentsOf: body)
        #expect(received.count > expected.count && received.suffix(expected.count) == expected,
                "\(received.count) bytes")
    }

    /// What a listener of the mount `show` got, from once it serves audio to the end of the stream.
    static func listen(to daemon: DaemonHarness, port: UInt16, saving name: String) throws -> URL {
        try daemon.waitForMount(port: port, "show")
        let body = daemon.folder.appendingPathComponent(name)
        let curl = try ToolProcess("curl", ["-sS", "--max-time", "60", "-o", body.path, "http://127.0.0.1:\(port)/show"],
                                   folder: daemon.folder, name: "curl")
        defer { curl.stop() }
        #expect(try daemon.waitForExit(timeout: 60) == 0, "\(daemon.log)")
        #expect(curl.finish().status == 0)
        return body
    }

    /// libopus' decode of the Ogg Opus file at `path` (every link, each trimmed as it says), as 32-bit floats.
    static func opusdec(_ path: String, folder: URL) throws -> [Float] {
        let wave = folder.appendingPathComponent(UUID().uuidString + ".wav").path
        _ = try FFmpegTool.run("opusdec", ["--quiet", "--float", "--rate", "48000", path, wave])
        return try FFmpegTool.decode(wave)
    }
}
