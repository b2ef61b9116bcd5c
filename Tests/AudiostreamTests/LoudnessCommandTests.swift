import FixtureSupport
import Foundation
import Testing

/// `audiostream loudness`: ReplayGain 2.0 of a file of every codec, against what loudgain and ffmpeg's ebur128
/// filter measured of the same files (make_loudness_references.py, expected/loudness.json), and the tags it
/// writes, read back by mutagen and applied by ffmpeg.
@Suite struct LoudnessCommandTests {
    struct Reference: Decodable {
        struct Figures: Decodable {
            let integrated: Double
            var gain: Double?
            var truePeak: Double?
        }
        struct Track: Decodable {
            let loudgain: Figures
            let ffmpeg: Figures
        }
        struct Album: Decodable {
            let files: [String]
            let loudgain: Figures
        }
        let files: [String: Track]
        let album: Album
    }

    static let reference = try! JSONDecoder().decode(
        Reference.self, from: Data(contentsOf: Fixtures.expected.appendingPathComponent("loudness.json")))

    /// The JSON lines of `audiostream loudness --json --true-peak ARGUMENTS`.
    static func measure(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try AudiostreamRunner.run(["loudness", "--json", "--true-peak"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func everyCodecIsChecked() {
        // MP3 (CBR, VBR), MP2, AAC (ADTS, M4A), Opus, Vorbis, FLAC, WAV, ALAC, AC-3 and E-AC-3 in 5.1.
        #expect(Self.reference.files.count == 12)
    }

    /// Integrated loudness within 0.1 LU of loudgain's and of ffmpeg's, the gain within 0.05 dB of loudgain's,
    /// the true peak within 0.1 dB of loudgain's (each decodes on its own: libmpg123 here, libavcodec there).
    @Test(arguments: reference.files.keys.sorted())
    func aFileMeasuresAsLoudgainAndFFmpeg(_ file: String) throws {
        let expected = try #require(Self.reference.files[file])
        let lines = try Self.measure([AudiostreamRunner.fixture(file)])
        let line = try #require(lines.first)
        let integrated = try #require(line["integrated"] as? Double)
        #expect(abs(integrated - expected.loudgain.integrated) <= 0.1, "\(line) against loudgain \(expected.loudgain)")
        #expect(abs(integrated - expected.ffmpeg.integrated) <= 0.1, "\(line) against ffmpeg \(expected.ffmpeg)")
        let gain = try #require(line["gain"] as? Double)
        #expect(abs(gain - (expected.loudgain.gain ?? .nan)) <= 0.05, "\(line) against loudgain \(expected.loudgain)")
        let peak = try #require(line["peak"] as? Double)
        #expect(abs(20 * log10(peak / (expected.loudgain.truePeak ?? .nan))) <= 0.1, "\(line)")
    }

    @Test func anAlbumMeasuresAsLoudgains() throws {
        let album = Self.reference.album
        let lines = try Self.measure(["--album"] + album.files.map(AudiostreamRunner.fixture))
        #expect(lines.count == album.files.count + 1)
        let line = try #require(lines.last)
        #expect(line["album"] as? Bool == true)
        let integrated = try #require(line["integrated"] as? Double)
        #expect(abs(integrated - album.loudgain.integrated) <= 0.1, "\(line) against \(album.loudgain)")
        #expect(abs((line["gain"] as? Double ?? .nan) - (album.loudgain.gain ?? .nan)) <= 0.05, "\(line)")
        let peak = try #require(line["peak"] as? Double)
        #expect(abs(20 * log10(peak / (album.loudgain.truePeak ?? .nan))) <= 0.1, "\(line)")
    }

    /// The tags written in each format's own fields, read back by mutagen, hold loudgain's gains (within 0.05 dB);
    /// ffmpeg, applying the track gain it reads from an MP3 and a FLAC file, measures them at -18 LUFS; the
    /// packets are those of the file before, byte for byte; Opus's header gain is left as it was.
    @Test func tagsAreWrittenInEachFormatsFields() throws {
        let folder = try makeTemporaryFolder("loudness-tags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["record/cbr.mp3", "record/flac.flac", "record/vorbis.ogg", "record/opus.opus", "record/aac.m4a"]
        var copies: [String] = []
        for file in files {
            let copy = folder.appendingPathComponent(file.replacingOccurrences(of: "/", with: "-")).path
            try FileManager.default.copyItem(atPath: AudiostreamRunner.fixture(file), toPath: copy)
            copies.append(copy)
        }
        let result = try AudiostreamRunner.run(["loudness", "--write-tags", "--album", "--true-peak"] + copies)
        try #require(result.status == 0, "\(result.standardError)")

        let keys: [String: (gain: String, peak: String?)] = [
            "record/cbr.mp3": ("TXXX:REPLAYGAIN_TRACK_GAIN", "TXXX:REPLAYGAIN_TRACK_PEAK"),
            "record/flac.flac": ("replaygain_track_gain", "replaygain_track_peak"),
            "record/vorbis.ogg": ("replaygain_track_gain", "replaygain_track_peak"),
            "record/opus.opus": ("r128_track_gain", nil),
            "record/aac.m4a": ("----:com.apple.iTunes:replaygain_track_gain", "----:com.apple.iTunes:replaygain_track_peak"),
        ]
        for (file, copy) in zip(files, copies) {
            let expected = try #require(Self.reference.files[file]?.loudgain)
            let tags = try TagsEditCommandTests.mutagen(copy).tags
            let key = try #require(keys[file])
            let gainText = try #require(Self.text(tags[key.gain]), "\(file): \(tags)")
            if let peakKey = key.peak {
                #expect(gainText.hasSuffix(" dB"), "\(file): \(gainText)")
                let gain = try #require(Double(gainText.dropLast(3)))
                #expect(abs(gain - (expected.gain ?? .nan)) <= 0.05, "\(file): \(gainText) against \(expected)")
                let peak = try #require(Self.text(tags[peakKey]).flatMap(Double.init), "\(file): \(tags)")
                #expect(abs(20 * log10(peak / (expected.truePeak ?? .nan))) <= 0.1, "\(file): \(peak)")
                let albumKey = key.gain.replacingOccurrences(of: "TRACK", with: "ALBUM")
                    .replacingOccurrences(of: "track", with: "album")
                #expect(Self.text(tags[albumKey]) != nil, "\(file): \(tags)")
            } else {
                // Q7.8 to -23 LUFS: 5 dB below ReplayGain's -18.
                let gain = try #require(Int(gainText))
                #expect(abs(Double(gain) / 256 - ((expected.gain ?? .nan) - 5)) <= 0.05, "\(file): \(gainText)")
                #expect(Self.text(tags["r128_album_gain"]) != nil, "\(file): \(tags)")
                #expect(try Self.opusHeaderGain(copy) == Self.opusHeaderGain(AudiostreamRunner.fixture(file)))
            }
            try TagsEditCommandTests.expectSamePackets(AudiostreamRunner.fixture(file), copy)
        }
        for copy in copies.prefix(2) {
            let measured = folder.appendingPathComponent("applied.txt").path
            _ = try FFmpegTool.run("ffmpeg", [
                "-nostdin", "-v", "error", "-i", copy, "-af",
                "volume=replaygain=track,ebur128=metadata=1,ametadata=print:key=lavfi.r128.I:file=\(measured)",
                "-f", "null", "-",
            ])
            let last = try String(contentsOfFile: measured, encoding: .utf8).split(separator: "\n")
                .last { $0.hasPrefix("lavfi.r128.I=") }
            let loudness = try #require(last.flatMap { Double($0.dropFirst("lavfi.r128.I=".count)) })
            #expect(abs(loudness - -18) <= 0.1, "\(copy): \(loudness) LUFS with its track gain")
        }
    }

    /// A file that does not decode is reported and skipped; the others are measured, and the exit status says 1.
    @Test func aFileThatDoesNotDecodeIsSkipped() throws {
        let folder = try makeTemporaryFolder("loudness-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.mp3").path
        try Data(String(repeating: "not audio ", count: 1000).utf8).write(to: URL(fileURLWithPath: junk))
        let good = AudiostreamRunner.fixture("record/cbr.mp3")
        let result = try AudiostreamRunner.run(["loudness", "--json", junk, good])
        #expect(result.status == 1)
        #expect(result.standardError.contains("junk.mp3"), "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("cbr.mp3"), "\(result.standardOutput)")
    }

    /// A format without ReplayGain fields is refused with the reason, and the other files are tagged.
    @Test func aFileThatCannotBeTaggedIsReported() throws {
        let folder = try makeTemporaryFolder("loudness-untaggable")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ac3 = folder.appendingPathComponent("a.ac3").path
        let flac = folder.appendingPathComponent("b.flac").path
        try FileManager.default.copyItem(atPath: AudiostreamRunner.fixture("ac3-48k-5.1-448k.ac3"), toPath: ac3)
        try FileManager.default.copyItem(atPath: AudiostreamRunner.fixture("record/flac.flac"), toPath: flac)
        let result = try AudiostreamRunner.run(["loudness", "--write-tags", ac3, flac])
        #expect(result.status == 1)
        #expect(result.standardError.contains("a.ac3"), "\(result.standardError)")
        #expect(try Self.text(TagsEditCommandTests.mutagen(flac).tags["replaygain_track_gain"]) != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: ac3))
            == Data(contentsOf: URL(fileURLWithPath: AudiostreamRunner.fixture("ac3-48k-5.1-448k.ac3"))))
    }

    /// A tag's text as mutagen gives it: the first of a list, or an MP4 freeform's bytes.
    static func text(_ value: (any Sendable)?) -> String? {
        if let list = value as? [String] { return list.first }
        guard let text = value as? String else { return nil }
        // "[MP4FreeForm(b'-6.64 dB', <AtomDataType.UTF8: 1>)]"
        guard let start = text.range(of: "b'"), let end = text.range(of: "'", range: start.upperBound..<text.endIndex)
        else { return text }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The output gain of an Opus file's identification header (RFC 7845 §5.1), in Q7.8.
    static func opusHeaderGain(_ path: String) throws -> Int16 {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let head = Array("OpusHead".utf8)
        let at = try #require((0...(bytes.count - 18)).first { Array(bytes[$0..<$0 + 8]) == head })
        return Int16(bitPattern: UInt16(bytes[at + 16]) | UInt16(bytes[at + 17]) << 8)
    }
}
