import FixtureSupport
import Foundation
import Testing

/// `audiostream hls`: each fixture as a VOD playlist that ffmpeg's HLS demuxer decodes to the samples of its own
/// decode of the file, with no gap or overlap at any segment's join, whose #EXTINF add up to that decode's
/// length to the sample, which passes the checker of RFC 8216bis' rules, and which GStreamer's `hlsdemux2` plays
/// to its end over HTTP.
@Suite struct HLSCommandTests {
    struct Case: Sendable, CustomTestStringConvertible {
        enum Match: Sendable {
            /// The playlist decodes to the file's decode, then (at most) the end trim the file stated.
            case identical
            /// Packed audio cannot state the priming: the file's decode follows it, which ffmpeg's trims of the
            /// file say (the LAME tag, the edit list).
            case afterPriming
        }

        let fixture: String
        var container: String?
        let match: Match
        /// Seconds of a segment: the 1 s fixtures in five or more.
        var segment = "2"
        var testDescription: String { fixture + (container.map { " as \($0)" } ?? "") }
    }

    static let cases = [
        Case(fixture: "record/cbr.mp3", match: .afterPriming),
        Case(fixture: "record/vbr.mp3", match: .afterPriming),
        Case(fixture: "record/aac.aac", match: .identical),
        Case(fixture: "record/aac.m4a", match: .afterPriming),
        Case(fixture: "record/aac.m4a", container: "fmp4", match: .identical),
        Case(fixture: "record/opus.opus", match: .identical),
        Case(fixture: "record/flac.flac", match: .identical),
        Case(fixture: "mp4/alac.m4a", match: .identical, segment: "0.2"),
        Case(fixture: "ac3-48k-stereo-192k.ac3", match: .identical, segment: "0.2"),
        Case(fixture: "eac3-48k-stereo-96k.eac3", match: .identical, segment: "0.2"),
    ]

    @Test func casesCoverEveryCodecOfBothContainers() {
        #expect(Self.cases.count == 10)
    }

    /// Writes the fixture's playlist into a new folder.
    static func segment(_ test: Case) throws -> (folder: URL, playlist: String) {
        let folder = try makeTemporaryFolder("hls")
        let source = Fixtures.directory.appendingPathComponent(test.fixture).path
        let result = try AudiostreamRunner.run(
            ["hls", source, "-o", folder.path, "--segment", test.segment] + (test.container.map { ["--container", $0] } ?? []))
        try #require(result.status == 0, "\(result.standardError)")
        return (folder, folder.appendingPathComponent("index.m3u8").path)
    }

    @Test(arguments: cases)
    func ffmpegDecodesThePlaylistToTheFile(_ test: Case) throws {
        let (folder, playlist) = try Self.segment(test)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Fixtures.directory.appendingPathComponent(test.fixture).path
        let channels = try FFmpegTool.channels(source)
        let rate = Double(try FFmpegTool.sampleRate(source))
        let whole = try FFmpegTool.decode(source)
        let streamed = try FFmpegTool.decode(playlist)
        let checker = PlaylistChecker(try String(contentsOfFile: playlist, encoding: .utf8))
        #expect(checker.violations.isEmpty, "\(checker.violations)")
        #expect(checker.segments.count >= 5)
        // EXTINF add up to the decode, to the sample.
        let stated = checker.segments.reduce(0) { $0 + $1.duration } * rate
        #expect(abs(stated - Double(streamed.count / channels)) < 0.5, "stated \(stated), decoded \(streamed.count / channels)")
        switch test.match {
        case .identical:
            // An end trim the file states may be left in: fragments cannot state one.
            try #require(streamed.count >= whole.count && streamed.count - whole.count <= 2048 * channels,
                         "\(streamed.count) samples, \(whole.count) in the file")
            #expect(Array(streamed.prefix(whole.count)) == whole)
        case .afterPriming:
            let priming = (0...4096).first { start in
                start * channels + whole.count <= streamed.count
                    && streamed[start * channels..<start * channels + 64] == whole[0..<64]
            }
            let start = try #require(priming, "the file's decode is nowhere in the first 4,096 frames") * channels
            #expect(Array(streamed[start..<start + whole.count]) == whole)
        }
    }

    @Test(arguments: cases)
    func gstreamerPlaysThePlaylistToItsEnd(_ test: Case) throws {
        let (folder, playlist) = try Self.segment(test)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FolderServer(folder: folder.path)
        defer { server.stop() }
        let pcm = folder.appendingPathComponent("decoded.pcm").path
        let result = try FFmpegTool.runToEnd("gst-launch-1.0", [
            "-q", "uridecodebin3", "uri=\(server.url("index.m3u8"))", "!", "audioconvert", "!",
            "audio/x-raw,format=S16LE", "!", "filesink", "location=\(pcm)",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.errors.contains("ERROR"), "\(result.errors)")
        // To its end: GStreamer's decoders trim as they see fit, but give every segment's audio.
        let source = Fixtures.directory.appendingPathComponent(test.fixture).path
        let channels = try FFmpegTool.channels(source)
        let frames = Double((try FileManager.default.attributesOfItem(atPath: pcm)[.size] as? Int ?? 0) / 2 / channels)
        let stated = PlaylistChecker(try String(contentsOfFile: playlist, encoding: .utf8)).segments
            .reduce(0) { $0 + $1.duration } * Double(try FFmpegTool.sampleRate(source))
        #expect(abs(frames - stated) < 4096, "GStreamer decoded \(frames) frames of \(stated)")
    }
}
