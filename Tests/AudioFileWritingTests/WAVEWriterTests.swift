import AudioFileStream
@testable import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// WAVE files written from our parser's packets, checked by ffprobe and ffmpeg and read back by our parser.
@Suite struct WAVEWriterTests {
    /// Integer samples of 8 to 32 bits, floats of 32 and 64, 1 to 6 channels, and AIFF's big-endian samples.
    static let fixtures: [(name: String, decodedAs: String)] = [
        ("wav-u8-mono.wav", "s32le"), ("wav-s16-stereo.wav", "s32le"), ("wav-s24-stereo.wav", "s32le"),
        ("wav-s32-mono.wav", "s32le"), ("wav-quad.wav", "s32le"), ("wav-4.0.wav", "s32le"), ("wav-5.1.wav", "s32le"),
        ("rf64-s16-stereo.wav", "s32le"), ("aiff-s16-stereo.aiff", "s32le"), ("aiff-s24-mono.aiff", "s32le"),
        ("aifc-sowt.aifc", "s32le"), ("wav-f32-stereo.wav", "f64le"), ("wav-f64-mono.wav", "f64le"),
        ("aifc-fl32.aifc", "f64le"), ("aifc-fl64.aifc", "f64le"),
    ]

    @Test func everyFixtureIsWritten() throws {
        var checked = 0
        for fixture in Self.fixtures {
            try checkWholeAndTwoPieces(fixture.name, decodedAs: fixture.decodedAs)
            checked += 1
        }
        #expect(checked == 15)
    }

    /// The whole file, and two pieces cut mid-batch: ffprobe reads each cleanly with the source's channel layout,
    /// ffmpeg decodes the whole to the source's samples and the pieces joined to the same, and our parser reads
    /// them back as the frames written.
    private func checkWholeAndTwoPieces(_ name: String, decodedAs sampleFormat: String) throws {
        let source = Fixtures.directory.appendingPathComponent("pcm").appendingPathComponent(name)
        let parsed = try ParsedTrack([UInt8](try Data(contentsOf: source)))
        let expected = try LosslessTools.decode(source, as: sampleFormat)
        let layout = try LosslessTools.probe(source, "stream=channels,channel_layout")
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytesPerFrame = Int(parsed.track.format.bytesPerFrame)
        let all = parsed.packets.flatMap(\.bytes)
        let cut = all.count / bytesPerFrame / 2 * bytesPerFrame + 7 * bytesPerFrame
        let pieces: [ArraySlice<(bytes: [UInt8], frames: Int64)>] = [
            parsed.packets[...],
            [(Array(all[..<cut]), Int64(cut / bytesPerFrame))],
            [(Array(all[cut...]), Int64((all.count - cut) / bytesPerFrame))],
        ]
        var joined: [UInt8] = []
        for (index, packets) in pieces.enumerated() {
            let file = folder.appendingPathComponent("\(index).wav")
            try writeFile(file, track: parsed.track, packets: packets)
            #expect(try LosslessTools.ffprobeWarnings(file) == "", "\(name) piece \(index)")
            // A source that states no layout (AIFF, WAVEFORMAT) is written with the one its channel count implies.
            let written = try LosslessTools.probe(file, "stream=channels,channel_layout")
            #expect(written == layout || layout.last == "unknown" && written.first == layout.first,
                    "\(name) piece \(index)")
            let decoded = try LosslessTools.decode(file, as: sampleFormat)
            if index == 0 { #expect(decoded == expected, "\(name)") } else { joined += decoded }
            let reread = try ParsedTrack([UInt8](try Data(contentsOf: file)))
            #expect(reread.frames == packets.reduce(0) { $0 + $1.frames }, "\(name) piece \(index)")
            #expect(reread.track.format.channelsPerFrame == parsed.track.format.channelsPerFrame)
        }
        #expect(joined == expected, "\(name): the pieces' samples joined are the whole's")
    }

    @Test func littleEndianSamplesAreCopiedAsTheyAre() throws {
        let parsed = try ParsedTrack(fixture("wav-s24-stereo.wav"))
        var target = ByteArrayTarget()
        try write(parsed, to: &target)
        let reread = try ParsedTrack(target.bytes)
        #expect(reread.track == parsed.track)
        #expect(reread.packets.flatMap(\.bytes) == parsed.packets.flatMap(\.bytes))
        // The RIFF size is the file's size less its first 8 bytes; the JUNK chunk holds ds64's place.
        #expect(Array(target.bytes[0..<4]) == Array("RIFF".utf8))
        #expect(Array(target.bytes[12..<20]) == Array("JUNK".utf8) + [28, 0, 0, 0])
        #expect(target.bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } == target.bytes.count - 8)
    }

    /// Past its RIFF size limit (lowered here from 4 GiB), the file becomes RF64 with a ds64 chunk: ffprobe reads
    /// it cleanly, ffmpeg decodes the source's samples, our parser reads it back.
    @Test func aLargeFileBecomesRF64() throws {
        let source = Fixtures.directory.appendingPathComponent("pcm/wav-u8-mono.wav")
        let parsed = try ParsedTrack(fixture("wav-u8-mono.wav"))
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("large.wav")
        var target = try FileTarget(creating: file.path)
        var writer = try WAVEWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0, to: &target,
                                    riffSizeLimit: 1000)
        // An odd count of 8-bit frames: the data chunk ends with a pad byte.
        let frames = parsed.packets.flatMap(\.bytes).dropLast(parsed.frames % 2 == 0 ? 1 : 0)
        try Array(frames).withUnsafeBytes { try writer.append($0, frames: Int64(frames.count), to: &target) }
        try writer.finish(trailingTrim: 0, to: &target)
        try target.flush()
        target.close()
        let bytes = [UInt8](try Data(contentsOf: file))
        #expect(Array(bytes[0..<4]) == Array("RF64".utf8) && Array(bytes[12..<16]) == Array("ds64".utf8))
        #expect(try LosslessTools.ffprobeWarnings(file) == "")
        let expected = try LosslessTools.decode(source, as: "s32le").prefix(frames.count * 4)
        #expect(try LosslessTools.decode(file, as: "s32le") == Array(expected))
        let reread = try ParsedTrack(bytes)
        #expect(reread.packets.flatMap(\.bytes) == Array(frames))
    }

    @Test func tagsAreWrittenInUTF8() throws {
        let parsed = try ParsedTrack(fixture("wav-s16-stereo.wav"))
        var tags = NormalizedTags()
        tags.title = "Nocturne – 夜想曲"
        tags.artist = "Zoë Ørsted"
        tags.album = "Radio Ελλάδα"
        tags.year = "2026-11-27T13:00:00"
        tags.genre = "Jazz"
        tags.comments = "recorded live"
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tagged.wav")
        try writeFile(file, track: parsed.track, tags: tags, packets: parsed.packets[...])
        #expect(try LosslessTools.ffprobeWarnings(file) == "")
        let read = try LosslessTools.probe(file, "format_tags=title,artist,album,date,genre,comment", select: "")
        #expect(Set(read) == ["Nocturne – 夜想曲", "Zoë Ørsted", "Radio Ελλάδα", "2026-11-27T13:00:00", "Jazz", "recorded live"])
        #expect(try ParsedTrack([UInt8](try Data(contentsOf: file))).tags == tags)
    }

    /// A file never finished (a crash) reads, with our parser, to its last whole frame wherever it was cut, and
    /// ffmpeg decodes those frames.
    @Test func anUnfinishedFileReadsToItsLastWholeFrame() throws {
        let parsed = try ParsedTrack(fixture("wav-s24-stereo.wav"))
        var target = ByteArrayTarget()
        var tags = NormalizedTags()
        tags.title = "title"
        var writer = try WAVEWriter(track: parsed.track, tags: tags, leadingTrim: 0, to: &target)
        let dataStart = target.bytes.count
        let all = parsed.packets.flatMap(\.bytes).prefix(600)
        try Array(all).withUnsafeBytes { try writer.append($0, frames: Int64(all.count / 6), to: &target) }
        var cuts = 0
        for cut in 0...target.bytes.count {
            let frames = max(0, cut - dataStart) / 6
            let read = try? ParsedTrack(Array(target.bytes[..<cut]))
            #expect((read?.packets.flatMap(\.bytes) ?? []) == Array(all.prefix(frames * 6)), "cut at \(cut)")
            cuts += 1
        }
        #expect(cuts == dataStart + 601)
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("crashed.wav")
        // Cut after a whole frame: ffmpeg reports a frame cut short as an error, after the frames before it.
        try Data(target.bytes.prefix(dataStart + 300)).write(to: file)
        let decoded = try LosslessTools.decode(file, as: "s32le")
        #expect(decoded.count == 50 * 2 * 4)
    }

    @Test func whatWAVECannotHoldIsRefused() throws {
        let parsed = try ParsedTrack(fixture("wav-s16-stereo.wav"))
        var target = ByteArrayTarget()
        for format in [
            AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpegLayer3, framesPerPacket: 1152,
                                        channelsPerFrame: 2),
            AudioStreamBasicDescription.interleaved(AudioFormatID.linearPCM, sampleRate: 44_100, channels: 2,
                                                    bitsPerChannel: 40, bytesPerSample: 2, flags: 0x0C),
            AudioStreamBasicDescription.interleaved(AudioFormatID.linearPCM, sampleRate: 0.5, channels: 2,
                                                    bitsPerChannel: 16, bytesPerSample: 2, flags: 0x0C),
        ] {
            #expect(throws: WriteError.self) {
                try WAVEWriter(track: TrackFormat(format: format), tags: NormalizedTags(), leadingTrim: 0, to: &target)
            }
        }
        var writer = try Container.wav.makeWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0,
                                                  to: &target)
        #expect(writer is WAVEWriter)
        #expect(throws: WriteError.self) {
            try [UInt8](repeating: 0, count: 7).withUnsafeBytes { try writer.append($0, frames: 2, to: &target) }
        }
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("pcm").appendingPathComponent(name)))
    }

    private func write(_ parsed: ParsedTrack, to target: inout ByteArrayTarget) throws {
        var writer = try WAVEWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        for packet in parsed.packets {
            try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
        }
        try writer.finish(trailingTrim: 0, to: &target)
    }
}
