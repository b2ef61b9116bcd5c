import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// Files written by `OggWriter` from an Opus, a Vorbis and an Ogg FLAC fixture, whole and cut from the middle
/// with a lead-in and trims, checked with ffprobe, opusinfo/ogginfo, ffmpeg's decodes and mutagen, and read
/// back by our parser, whole and cut short at any byte.
@Suite struct OggWriterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let fixture: String
        let container: Container
        /// The checker of the codec's Ogg mapping: opusinfo or ogginfo.
        let checker: String
        /// Whether ffmpeg drops the frames a start trim and an end trim state: it honours Opus' pre-skip and
        /// the last granule position of Opus and Vorbis, but not a Vorbis start trim (it gives the frames
        /// negative timestamps and keeps them) nor either trim of FLAC. Cuts checked with ffmpeg start, or
        /// end, on a packet boundary where it does not.
        let ffmpegHonoursStartTrim: Bool
        let ffmpegHonoursEndTrim: Bool
        /// The largest difference between a cut's decoded samples and the whole's over the same range (full
        /// scale 1), measured with ffmpeg after the codec's `DecoderLeadIn`: Vorbis' one packet and FLAC give
        /// identical samples; Opus' decoder state converges only geometrically, its error about halving every
        /// 20 ms (0.07 after 80 ms, 3e-4 after 240 ms, 2e-5 after 320 ms, at most 4.2e-7 after 480 ms).
        let maximumError: Float

        var testDescription: String { fixture }
    }

    static let cases = [
        Case(fixture: "ogg-opus-64k-stereo.opus", container: .opus, checker: "opusinfo",
             ffmpegHonoursStartTrim: true, ffmpegHonoursEndTrim: true, maximumError: 1e-6),
        Case(fixture: "ogg-vorbis-q0-44k-stereo.ogg", container: .ogg, checker: "ogginfo",
             ffmpegHonoursStartTrim: false, ffmpegHonoursEndTrim: true, maximumError: 0),
        Case(fixture: "ogg-flac-44k-stereo.oga", container: .oga, checker: "ogginfo",
             ffmpegHonoursStartTrim: false, ffmpegHonoursEndTrim: false, maximumError: 0),
    ]

    static func source(_ testCase: Case) throws -> (ParsedOggSource, URL) {
        let file = Fixtures.directory.appendingPathComponent("ogg").appendingPathComponent(testCase.fixture)
        return (try ParsedOggSource([UInt8](try Data(contentsOf: file))), file)
    }

    /// Two consecutive ranges of the decoded output from 30 % to 70 % of it, bounded inside packets where ffmpeg
    /// honours the trim and on packet boundaries where it does not.
    static func ranges(of source: ParsedOggSource, _ testCase: Case) -> [Range<Int64>] {
        var bounds = [3, 5, 7].map { source.validFrames * Int64($0) / 10 + 123 }
        if !testCase.ffmpegHonoursStartTrim {
            bounds[0] = source.packetStart(atOrAfter: bounds[0])
            bounds[1] = source.packetStart(atOrAfter: bounds[1])
        }
        if !testCase.ffmpegHonoursEndTrim { bounds[2] = source.packetStart(atOrAfter: bounds[2]) }
        return [bounds[0]..<bounds[1], bounds[1]..<bounds[2]]
    }

    @Test(arguments: cases) func aWholeFileDecodesAsTheSource(_ testCase: Case) throws {
        let (source, file) = try Self.source(testCase)
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.store(source.write(source.whole, container: testCase.container), in: folder,
                                  as: "whole.\(testCase.container.rawValue)")
        try Self.expectValid(path, testCase)
        let original = try Self.decode(file.path)
        let written = try Self.decode(path)
        #expect(written.frameCount == source.validFrames)
        #expect(try OggCheckTools.mutagenFrames(path) == source.validFrames)
        #expect(written.samples == original.samples)
    }

    @Test(arguments: cases) func cutsDecodeToTheirRangeWithinTheStatedError(_ testCase: Case) throws {
        let (source, file) = try Self.source(testCase)
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Self.decode(file.path)
        let leadIn = DecoderLeadIn.of(source.track.format)
        var joined: [Float] = []
        let ranges = Self.ranges(of: source, testCase)
        for (index, range) in ranges.enumerated() {
            let cut = source.cut(range, leadIn: leadIn)
            // Trims are stated where ffmpeg honours them (Opus' pre-skip also drops the lead-in).
            #expect((cut.leadingTrim > 0) == testCase.ffmpegHonoursStartTrim)
            if index == ranges.count - 1 { #expect((cut.trailingTrim > 0) == testCase.ffmpegHonoursEndTrim) }
            let path = try Self.store(source.write(cut, container: testCase.container), in: folder,
                                      as: "cut\(index).\(testCase.container.rawValue)")
            try Self.expectValid(path, testCase)
            let decoded = try Self.decode(path)
            #expect(decoded.frameCount == Int64(range.count))
            #expect(try OggCheckTools.mutagenFrames(path) == Int64(range.count))
            let channels = Int(source.track.format.channelsPerFrame)
            let expected = whole.samples[Int(range.lowerBound) * channels..<Int(range.upperBound) * channels]
            #expect(Self.largestDifference(decoded.samples, Array(expected)) <= testCase.maximumError)
            let reread = try ParsedOggSource(try Self.bytes(path))
            #expect(reread.packets == Array(source.packets[cut.packets]))
            #expect(reread.priming == cut.leadingTrim && reread.remainder == cut.trailingTrim)
            joined += decoded.samples
        }
        let range = ranges.first!.lowerBound..<ranges.last!.upperBound
        let channels = Int(source.track.format.channelsPerFrame)
        #expect(joined.count == range.count * channels)
        let expected = whole.samples[Int(range.lowerBound) * channels..<Int(range.upperBound) * channels]
        #expect(Self.largestDifference(joined, Array(expected)) <= testCase.maximumError)
    }

    @Test(arguments: cases) func mutagenReadsTheTagsWritten(_ testCase: Case) throws {
        let (source, _) = try Self.source(testCase)
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        var tags = NormalizedTags()
        tags.title = "Ночной эфир — 夜"
        tags.year = "2026-11-27T13:00:00"
        tags.artwork = VorbisCommentWriterTests.artwork
        let path = try Self.store(source.write(source.whole, container: testCase.container, tags: tags), in: folder,
                                  as: "tags.\(testCase.container.rawValue)")
        let read = try OggCheckTools.mutagenComments(path)
        #expect(read.fields == [["TITLE", "Ночной эфир — 夜"], ["DATE", "2026-11-27T13:00:00"]])
        if testCase.container != .oga {
            #expect(read.pictures == [.init(mime: "image/png", type: 3, desc: "Überblick ✓", data: "89504e4700")])
        }
        #expect(try ParsedOggSource(try Self.bytes(path)).tags == tags)
    }

    /// A file cut at any byte, as a crash leaves it, gives the packets of its whole pages.
    @Test(arguments: cases) func aFileCutShortParsesToThePacketsPresent(_ testCase: Case) throws {
        let (source, _) = try Self.source(testCase)
        let cut = source.cut(Self.ranges(of: source, testCase)[0], leadIn: DecoderLeadIn.of(source.track.format))
        let file = try source.write(cut, container: testCase.container)
        let pageEnds = Self.pagesEnds(file)
        var lengths = Array(stride(from: 0, to: file.count, by: 7))
        for page in pageEnds { lengths += [page.end - 1, page.end, min(page.end + 1, file.count)] }
        for length in lengths {
            let present = pageEnds.last { $0.end <= length }?.packetsEnded ?? 0
            let reread = try ParsedOggSource(Array(file[..<length]))
            #expect(reread.packets == Array(source.packets[cut.packets].prefix(present)), "cut at \(length)")
        }
    }

    /// A Vorbis start trim inside a packet, as the Vorbis I specification §A.2 states it (the first audio page's
    /// granule position below its packets' frames), is honoured by libvorbisfile (oggdec): ffmpeg keeps the
    /// trimmed frames, so the recorder starts Vorbis pieces on packet boundaries.
    @Test func aVorbisStartTrimIsHonouredByLibvorbisfile() throws {
        let testCase = Self.cases[1]
        let (source, file) = try Self.source(testCase)
        let folder = try makeTemporaryFolder("ogg-writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let range = source.validFrames / 3 + 123..<source.validFrames * 2 / 3 + 45
        let cut = source.cut(range, leadIn: DecoderLeadIn.of(source.track.format))
        #expect(cut.leadingTrim > 0 && cut.trailingTrim > 0)
        let path = try Self.store(source.write(cut, container: .ogg), in: folder, as: "trimmed.ogg")
        try Self.expectValid(path, testCase)
        let raw = folder.appendingPathComponent("decoded.raw").path
        _ = try FFmpegTool.run("oggdec", ["-Q", "-R", "-o", raw, path])
        let channels = Int64(source.track.format.channelsPerFrame)
        // 16-bit samples.
        let decodedFrames = Int64(try Data(contentsOf: URL(fileURLWithPath: raw)).count) / 2 / channels
        #expect(decodedFrames == Int64(range.count))
        let ffmpeg = try Self.decode(path)
        #expect(ffmpeg.frameCount == Int64(range.count) + cut.leadingTrim)
        let whole = try Self.decode(file.path)
        let expected = whole.samples[Int(range.lowerBound * channels)..<Int(range.upperBound * channels)]
        #expect(Array(ffmpeg.samples.dropFirst(Int(cut.leadingTrim * channels))) == Array(expected))
    }

    @Test func junkOrALyingCookieIsRefused() {
        var target = ByteArrayTarget()
        let formats = [(AudioFormatID.opus, 48_000.0), (AudioFormatID.vorbis, 44_100), (AudioFormatID.flac, 44_100)]
        for (formatID, rate) in formats {
            let format = AudioStreamBasicDescription(sampleRate: rate, formatID: formatID, framesPerPacket: 0,
                                                     channelsPerFrame: 2)
            for cookie in [[], [UInt8](repeating: 0xFF, count: 40), Array("OpusHead".utf8) + [1, 0]] {
                #expect(throws: WriteError.self) {
                    _ = try OggWriter(track: TrackFormat(format: format, cookie: cookie), tags: NormalizedTags(),
                                      leadingTrim: 0, to: &target)
                }
            }
        }
        #expect(target.bytes.isEmpty)
    }

    /// Packets of junk, of any size and frame count, never crash the writer: it writes them or refuses them.
    @Test(arguments: cases) func junkPacketsNeverCrashTheWriter(_ testCase: Case) throws {
        let (source, _) = try Self.source(testCase)
        var random = TestRandom(seed: 26)
        var target = ByteArrayTarget()
        var writer = try OggWriter(track: source.track, tags: NormalizedTags(), leadingTrim: 100, to: &target)
        var refused = 0
        for _ in 0..<100 {
            let packet = (0..<Int(random.next() % 70_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let frames = [Int64.max, -1, 0, Int64(random.next() % 10_000)][Int(random.next() % 4)]
            do {
                try packet.withUnsafeBytes { try writer.append($0, frames: frames, to: &target) }
            } catch WriteError.unsupportedFormat {
                refused += 1
            }
        }
        try writer.finish(trailingTrim: Int64.max, to: &target)
        #expect(refused > 0 && refused < 100)
        // The pages run to the end of the file, each with its CRC right, the last flagged as such.
        #expect(OggPageWriterTests.pages(target.bytes).count > 3)
        let ends = Self.pagesEnds(target.bytes)
        #expect(target.bytes[ends[ends.count - 2].end + 5] & 0x04 != 0)
    }

    // MARK: - Checks

    /// ffprobe warns of nothing and the codec's own checker reports no error.
    static func expectValid(_ path: String, _ testCase: Case) throws {
        #expect(try FFmpegTool.warnings(path) == "")
        let check = try FFmpegTool.run(testCase.checker, [path])
        let report = String(decoding: check.output, as: UTF8.self) + check.errors
        #expect(!report.contains("WARNING") && !report.contains("ERROR"), "\(testCase.checker): \(report)")
    }

    /// ffmpeg's decode of the file at `path`, as 32-bit float samples, and the frames they make.
    static func decode(_ path: String) throws -> (samples: [Float], frameCount: Int64) {
        let samples = try FFmpegTool.decode(path)
        return (samples, Int64(samples.count / max(try FFmpegTool.channels(path), 1)))
    }

    static func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    /// Where each page of a file ends, and how many audio packets end on it and the pages before (RFC 3533 §6: a
    /// lacing value below 255 ends a packet), read from the pages' headers alone. The header packets are those
    /// of the first pages, whose granule position is 0.
    static func pagesEnds(_ file: [UInt8]) -> [(end: Int, packetsEnded: Int)] {
        var ends: [(Int, Int)] = []
        var position = 0, packets = 0
        var inHeaders = true
        while position + 27 <= file.count {
            let segments = Int(file[position + 26])
            let lacing = file[position + 27..<position + 27 + segments]
            let granulePosition = file[position + 6..<position + 14].reversed().reduce(0) { $0 << 8 | Int64($1) }
            inHeaders = inHeaders && granulePosition == 0
            if !inHeaders { packets += lacing.filter { $0 < 255 }.count }
            position += 27 + segments + lacing.reduce(0) { $0 + Int($1) }
            ends.append((position, packets))
        }
        return ends
    }

    static func store(_ bytes: [UInt8], in folder: URL, as name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

