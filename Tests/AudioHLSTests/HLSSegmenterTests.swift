import AudioFileStream
import AudioFileWriting
import AudioHLS
import FixtureSupport
import Foundation
import Testing

/// The segmenter fed the parser's events of the 12 s record fixtures: segments and parts within their targets,
/// their durations the frames ffprobe counts, their bytes what the files hold, and every playlist on the way
/// passing the checker of RFC 8216bis' rules.
@Suite struct HLSSegmenterTests {
    /// What a segmenter made of a fixture: each change, and the playlist after each one (full and delta).
    struct Run {
        var changes: [HLSChange] = []
        var playlists: [String] = []
        var deltas: [String] = []
        var list: HLSMediaList?

        func bytes(named name: String) -> [UInt8]? {
            for change in changes {
                switch change {
                case .initSection(name, let bytes), .part(name, let bytes), .segment(name, let bytes): return bytes
                default: continue
                }
            }
            return nil
        }
    }

    static func run(_ fixture: String, _ settings: HLSSettings, skips: [Range<Int>] = []) throws -> Run {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture(fixture))))
        return try run(bytes, settings, skips: skips)
    }

    /// `bytes` cut as a file is (`handle`, the first error thrown), or as a live stream is (`take`, each
    /// refusal kept in `refusals`).
    static func run(_ bytes: [UInt8], _ settings: HLSSettings, skips: [Range<Int>] = [], live: Bool = false,
                    refusals: inout [any Error]) throws -> Run {
        var run = Run()
        var segmenter: HLSSegmenter?
        let made = HLSSegmenter(settings: settings, clock: { 1_780_000_000 }) { change in
            run.changes.append(change)
            guard let list = segmenter?.list else { return }
            run.playlists.append(HLSPlaylistWriter.media(list))
            run.deltas.append(HLSPlaylistWriter.media(list, HLSPlaylistWriter.Request(skipsOldSegments: true)))
        }
        segmenter = made
        var failure: (any Error)?
        var found: [any Error] = []
        let stream = try AudioFileStream(fileTypeHint: nil) { event in
            if live {
                if let refusal = made.take(event) { found.append(refusal) }
                return
            }
            guard failure == nil else { return }
            do { try made.handle(event) } catch { failure = error }
        }
        try feed(bytes, to: stream, chunking: .fixed(4096), skips: skips)
        refusals = found
        if let failure { throw failure }
        try made.finish()
        run.list = made.list
        return run
    }

    static func run(_ bytes: [UInt8], _ settings: HLSSettings, skips: [Range<Int>] = []) throws -> Run {
        var refusals: [any Error] = []
        return try run(bytes, settings, skips: skips, refusals: &refusals)
    }

    static func fixture(_ name: String) -> String {
        Fixtures.directory.appendingPathComponent("record/\(name)").path
    }

    static let live = HLSSettings(segment: 2, part: 0.5, window: 60)

    /// Each fixture, its frames per second, and the frames its packets decode to as ffprobe counts them.
    static let cases: [(fixture: String, container: String)] = [
        ("cbr.mp3", "packed"), ("aac.aac", "packed"), ("aac.m4a", "fmp4"), ("opus.opus", "fmp4"),
        ("flac.flac", "fmp4"),
    ]

    @Test(arguments: cases.map(\.fixture))
    func segmentsAndPartsKeepToTheirTargets(_ fixture: String) throws {
        let container = Self.cases.first { $0.fixture == fixture }!.container
        let run = try Self.run(fixture, HLSSettings(segment: 2, part: 0.5, window: 60,
                                                    container: HLSContainer(rawValue: container)))
        let list = try #require(run.list)
        #expect(list.isEnded)
        let segments = list.segments
        try #require(segments.count >= 6, "12 s in segments of at most 2 s")
        let rate = segments[0].sampleRate
        // Parts are within a packet of their target (FLAC's 4,608 frames, 0.105 s, are the longest), segments
        // within a part of theirs.
        for segment in segments.dropLast() {
            #expect(segment.duration <= 2 && segment.duration > 1.5, "\(segment.name): \(segment.duration) s")
            #expect(segment.parts.reduce(0) { $0 + $1.frames } == segment.frames)
            for part in segment.parts {
                #expect(Double(part.frames) / rate <= 0.5 && Double(part.frames) / rate > 0.39,
                        "\(part.name): \(Double(part.frames) / rate) s")
            }
            let joined = segment.parts.flatMap { run.bytes(named: $0.name) ?? [] }
            #expect(run.bytes(named: segment.name) == joined, "\(segment.name) is not its parts one after another")
        }
        // The whole decodes (ffmpeg, with the trims it honours) to the frames the segments state, the end trim
        // but for MP3's LAME tag, which packed audio cannot state, left in.
        let decoded = try FFmpegTool.decode(Self.fixture(fixture)).count / FFmpegTool.channels(Self.fixture(fixture))
        let stated = Int(segments.reduce(0) { $0 + $1.frames })
        #expect(stated >= decoded && stated - decoded < 4096, "stated \(stated), decoded \(decoded)")
        for playlist in run.playlists + run.deltas {
            let checker = PlaylistChecker(playlist)
            #expect(checker.violations.isEmpty, "\(checker.violations)\n\(playlist)")
        }
        for (old, new) in zip(run.playlists, run.playlists.dropFirst()) {
            let violations = PlaylistChecker.continuity(from: PlaylistChecker(old), to: PlaylistChecker(new))
            #expect(violations.isEmpty, "\(violations)")
        }
    }

    /// PART-TARGET is the setting rounded down to whole packets, as long as ffprobe finds them, and every part but
    /// a segment's last is that long: a player holding back three parts holds back no more than it must.
    @Test(arguments: cases.map(\.fixture))
    func partsAreWholePacketsOfTheTarget(_ fixture: String) throws {
        let path = Self.fixture(fixture)
        let packetFrames = try FFmpegTool.firstPacketFrames(path)
        let rate = try FFmpegTool.sampleRate(path)
        try #require(packetFrames > 0 && rate > 0)
        let target = rate / 2 / packetFrames * packetFrames
        let run = try Self.run(fixture, Self.live)
        let list = try #require(run.list)
        #expect(list.partTarget == Double(target) / Double(rate))
        // The stream's first segment may lose its priming (fmp4), the last ends with the stream.
        let parts = list.segments.dropFirst().dropLast().flatMap { $0.parts.dropLast() }
        try #require(parts.count >= 10)
        for part in parts { #expect(part.frames == Int64(target), "\(part.name)") }
        let playlist = PlaylistChecker(run.playlists.last!)
        #expect(playlist.violations.isEmpty)
        #expect(abs((playlist.partTarget ?? 0) - Double(target) / Double(rate)) < 1e-9)
    }

    /// RFC 8216bis §3.1.3: every packed segment begins with the ID3 PRIV timestamp of its first sample on the
    /// 90 kHz clock, as ffprobe reads it.
    @Test(arguments: ["cbr.mp3", "aac.aac"])
    func packedSegmentsStateTheirFirstSamplesTime(_ fixture: String) throws {
        let run = try Self.run(fixture, HLSSettings(segment: 2, part: 0, window: 60))
        let folder = try makeTemporaryFolder("hls-priv")
        defer { try? FileManager.default.removeItem(at: folder) }
        var start = 0.0
        // The last one may hold too few frames for ffprobe to read.
        for segment in try #require(run.list?.segments).dropLast() {
            let path = folder.appendingPathComponent(segment.name).path
            try Data(try #require(run.bytes(named: segment.name))).write(to: URL(fileURLWithPath: path))
            let json = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
            let text = String(decoding: json.output, as: UTF8.self)
            let stamp = try #require(Self.timestamp(in: text), "\(segment.name): \(text)")
            #expect(stamp == Int64((start * 90000).rounded(.down)), "\(segment.name)")
            start += segment.duration
        }
    }

    /// The PRIV data ffprobe prints, escaped byte by byte (`\x00`) where not printable.
    static func timestamp(in json: String) -> Int64? {
        guard let key = json.range(of: "transportStreamTimestamp\": \"") else { return nil }
        var bytes: [UInt8] = []
        var rest = json[key.upperBound...]
        while let next = rest.first, next != "\"" {
            if rest.hasPrefix("\\\\x") {
                bytes.append(UInt8(rest.dropFirst(3).prefix(2), radix: 16) ?? 0)
                rest = rest.dropFirst(5)
            } else {
                bytes.append(UInt8(ascii: next.unicodeScalars.first!))
                rest = rest.dropFirst()
            }
        }
        return bytes.count == 8 ? bytes.reduce(0) { $0 << 8 | Int64($1) } : nil
    }

    /// Segments leave the window oldest first, their parts with them, and the media sequence counts them.
    @Test func theWindowSlides() throws {
        let run = try Self.run("cbr.mp3", HLSSettings(segment: 2, part: 0.5, window: 6))
        let list = try #require(run.list)
        let removed = run.changes.flatMap { change -> [String] in
            if case .removed(let names) = change { return names } else { return [] }
        }
        #expect(list.mediaSequence == list.segments.first?.sequence)
        #expect(list.mediaSequence >= 2)
        #expect(list.segments.reduce(0) { $0 + $1.duration } >= 6)
        #expect(list.segments.dropFirst().reduce(0) { $0 + $1.duration } < 6)
        for sequence in 0..<list.mediaSequence {
            #expect(removed.contains("segment-\(sequence).mp3"))
            #expect(removed.contains("part-\(sequence).0.mp3"))
        }
        #expect(!removed.contains { name in list.segments.contains { $0.name == name } })
    }

    /// Bytes lost mid-stream start a segment marked as a discontinuity; in fragmented MP4 its parts keep the
    /// same initialization section when its bytes are the same.
    @Test(arguments: ["cbr.mp3", "opus.opus"])
    func aGapIsADiscontinuity(_ fixture: String) throws {
        let size = try Data(contentsOf: URL(fileURLWithPath: Self.fixture(fixture))).count
        let run = try Self.run(fixture, HLSSettings(segment: 2, part: 0, window: 60),
                               skips: [size / 2..<size / 2 + 3000])
        let segments = try #require(run.list?.segments)
        #expect(segments.filter(\.isDiscontinuity).count == 1)
        let playlist = HLSPlaylistWriter.media(try #require(run.list))
        #expect(playlist.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2, "\(playlist)")
        #expect(PlaylistChecker(playlist).violations.isEmpty)
    }

    /// The playlist states one PART-TARGET, from the first track: a later track whose packets are longer (32 kHz
    /// MP3 after 44.1 kHz with parts of one packet) is not cut, and the cutting goes on at the next format, the
    /// playlist keeping every rule all the while.
    @Test func packetsLongerThanThePartTargetAreNotCut() throws {
        let first = Self.fixture("cbr.mp3")
        let slower = Fixtures.directory.appendingPathComponent("l3-32k-mono.mp3").path
        let firstFrames = try FFmpegTool.firstPacketFrames(first)
        let firstPacket = Double(firstFrames) / Double(try FFmpegTool.sampleRate(first))
        let slowerPacket = Double(try FFmpegTool.firstPacketFrames(slower))
            / Double(try FFmpegTool.sampleRate(slower))
        try #require(slowerPacket > firstPacket && 0.05 < 2 * firstPacket, "one packet of the first per part")
        let firstBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: first)))
        let bytes = firstBytes + [UInt8](try Data(contentsOf: URL(fileURLWithPath: slower))) + firstBytes
        var refusals: [any Error] = []
        let run = try Self.run(bytes, HLSSettings(segment: 0.5, part: 0.05, window: 60), live: true,
                               refusals: &refusals)
        #expect(refusals.count == 1)
        #expect(refusals.map { "\($0)" }.allSatisfy { $0.contains("PART-TARGET") }, "\(refusals)")
        let list = try #require(run.list)
        #expect(list.partTarget == firstPacket)
        for playlist in run.playlists + run.deltas {
            let checker = PlaylistChecker(playlist)
            #expect(checker.violations.isEmpty, "\(checker.violations)\n\(playlist)")
        }
        // The first file, then after the discontinuity the first file again: as many frames as ffprobe's packets.
        let frames = Int64(try FFmpegTool.packetHashes(first).count * firstFrames)
        let resumed = try #require(list.segments.firstIndex { $0.isDiscontinuity })
        #expect(list.segments[..<resumed].reduce(0) { $0 + $1.frames } == frames)
        #expect(list.segments[resumed...].reduce(0) { $0 + $1.frames } == frames)
    }

    /// Dates follow the audio, but a discontinuity dates its segment by the clock again: after a gap of the
    /// source, the next segment says when it was made, not when the audio before it would have ended.
    @Test func aDiscontinuityIsDatedByTheClock() throws {
        let start = 1_780_000_000.0
        var readings = 0
        let segmenter = HLSSegmenter(settings: HLSSettings(segment: 2, part: 0, window: 60), clock: {
            readings += 1
            return readings == 1 ? start : start + 3600
        }) { _ in }
        let stream = try AudioFileStream(fileTypeHint: nil) { event in try? segmenter.handle(event) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("cbr.mp3"))))
        try feed(bytes, to: stream, chunking: .fixed(4096), skips: [bytes.count / 2..<bytes.count / 2 + 3000])
        try segmenter.finish()
        let segments = segmenter.list.segments
        let resumed = try #require(segments.firstIndex { $0.isDiscontinuity })
        #expect(segments[0].date == start)
        #expect(segments[resumed].date == start + 3600)
        #expect(abs(segments[resumed + 1].date - segments[resumed].date - segments[resumed].duration) < 1e-6)
    }

    /// Vorbis has no HLS container: the error says which codecs each one carries.
    @Test func vorbisIsRefused() throws {
        let error = try #require(throws: WriteError.self) { _ = try Self.run("vorbis.ogg", Self.live) }
        #expect("\(error)".contains("Vorbis"), "\(error)")
        #expect("\(error)".contains("fmp4 AAC, ALAC, Opus and FLAC"), "\(error)")
    }

    /// Requested containers that cannot carry the codec are refused before the first segment.
    @Test func aContainerThatCannotCarryTheCodecIsRefused() {
        #expect(throws: WriteError.self) {
            _ = try Self.run("opus.opus", HLSSettings(segment: 2, part: 0, window: 60, container: .packed))
        }
        #expect(throws: WriteError.self) {
            _ = try Self.run("cbr.mp3", HLSSettings(segment: 2, part: 0, window: 60, container: .fmp4))
        }
    }

    /// A title noted between packets starts a segment there that says it, and its date range stays in a delta
    /// update that skips the segment (RFC 8216bis §4.4.5.2).
    @Test func aTitleStartsASegmentThatSaysIt() throws {
        var packetsBefore: Int64?
        var packets: Int64 = 0
        let segmenter = HLSSegmenter(settings: HLSSettings(segment: 0.5, part: 0.25, window: 60),
                                     clock: { 1_780_000_000 }) { _ in }
        let stream = try AudioFileStream(fileTypeHint: nil) { event in
            try? segmenter.handle(event)
            guard case .packets(let batch) = event else { return }
            packets += Int64(batch.packets.count)
            if packetsBefore == nil, packets >= 40 {
                packetsBefore = packets
                segmenter.noteNowPlaying(HLSNowPlaying(streamTitle: "The Artist - The Song"))
            }
        }
        try feed([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("cbr.mp3")))), to: stream,
                 chunking: .fixed(512))
        try segmenter.finish()
        let segments = segmenter.list.segments
        let index = try #require(segments.firstIndex { $0.nowPlaying != nil })
        #expect(segments[index].nowPlaying == HLSNowPlaying(artist: "The Artist", title: "The Song"))
        #expect(segments[..<index].reduce(0) { $0 + $1.frames } == (packetsBefore ?? 0) * 1152)
        let delta = HLSPlaylistWriter.media(segmenter.list, HLSPlaylistWriter.Request(skipsOldSegments: true))
        let checker = PlaylistChecker(delta)
        #expect(checker.skipped > index, "\(delta)")
        #expect(checker.violations.isEmpty)
        #expect(delta.contains("#EXT-X-DATERANGE:ID=\"nowplaying-\(segments[index].sequence)\""), "\(delta)")
        #expect(delta.contains("X-TITLE=\"The Song\",X-ARTIST=\"The Artist\""))
    }
}
