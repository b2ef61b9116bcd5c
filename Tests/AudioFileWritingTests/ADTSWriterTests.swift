import AudioFileStream
import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

@Suite struct ADTSWriterTests {
    /// Streams written by FFmpeg's ADTS muxer, whose headers are the ones ADTS gives a format (no CRC, VBR
    /// fullness, one raw data block).
    static let streams = ["adts-lc-44k-stereo.aac", "adts-lc-48k-5.1.aac", "adts-lc-8k-mono.aac"]

    @Test(arguments: streams) func piecesConcatenatedAreTheStreamsFrames(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let stream = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent(name)))
        let bounds = [0, source.packets.count / 3, source.packets.count * 2 / 3, source.packets.count]
        var joined: [UInt8] = []
        for (start, end) in zip(bounds, bounds.dropFirst()) {
            joined += try source.write(.aac, packets: start..<end)
        }
        #expect(joined == stream)
    }

    @Test func aTaggedFileReadsInFFprobeMutagenAndOurParser() throws {
        let source = try ParsedFixture(fixture: "adts-lc-44k-stereo.aac")
        var tags = NormalizedTags()
        tags.title = "Nachtmusik — 夜の音楽"
        tags.artist = "Radio Ünïcode"
        let bytes = try source.write(.aac, packets: source.packets.indices, tags: tags)
        let path = try WrittenFile.at(bytes, named: "tagged.aac")
        defer { WrittenFile.remove(path) }
        // FFmpeg estimates the duration of every ADTS stream, and says so: nothing more is said of ours.
        let original = Fixtures.directory.appendingPathComponent("adts-lc-44k-stereo.aac").path
        #expect(try WrittenFile.warnings(path) == WrittenFile.warnings(original))
        let packets = try FFmpegTool.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                                  "-of", "default=nw=1:nk=1", path])
        #expect(String(decoding: packets.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            == String(source.packets.count))
        let read = try WrittenFile.mutagen("""
            tag = mutagen.id3.ID3(sys.argv[1])
            print(json.dumps({'version': tag.version[1], 'title': str(tag['TIT2']), 'artist': str(tag['TPE1'])}))
            """, path)
        #expect(read["version"] as? Int == 4)
        #expect(read["title"] as? String == tags.title)
        #expect(read["artist"] as? String == tags.artist)
        let parsed = try ParsedFixture(bytes)
        #expect(parsed.tags.map(\.tags) == [tags])
        #expect(parsed.packets.map(\.bytes) == source.packets.map(\.bytes))
    }

    @Test func formatsADTSCannotSayAndUnitsTooLongAreRefused() throws {
        var target = ByteArrayTarget()
        let heAAC = AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpeg4AAC, formatFlags: 5,
                                                framesPerPacket: 2048, channelsPerFrame: 2)
        #expect(throws: WriteError.self) {
            _ = try ADTSWriter(track: TrackFormat(format: heAAC), tags: NormalizedTags(), leadingTrim: 0, to: &target)
        }
        let source = try ParsedFixture(fixture: "adts-lc-44k-stereo.aac")
        var writer = try ADTSWriter(track: source.track!, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        let tooLong = [UInt8](repeating: 0, count: 8_185)
        #expect(throws: WriteError.self) { try tooLong.withUnsafeBytes { try writer.append($0, frames: 1024, to: &target) } }
        #expect(throws: WriteError.self) {
            _ = try ADTSWriter(track: source.track!, tags: NormalizedTags(), leadingTrim: 1024, to: &target)
        }
    }
}

@Suite struct AC3FramesWriterTests {
    @Test(arguments: ["ac3-48k-stereo-192k.ac3", "eac3-48k-stereo-96k.eac3"])
    func piecesConcatenatedAreTheStreamsFrames(name: String) throws {
        let source = try ParsedFixture(fixture: name)
        let container = try #require(Container(fileName: name))
        let middle = source.packets.count / 2
        let pieces = try source.write(container, packets: 0..<middle)
            + source.write(container, packets: middle..<source.packets.count)
        #expect(pieces == [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent(name))))
        // FFmpeg estimates the duration of every raw AC-3 stream, and says so: nothing more is said of ours.
        let original = Fixtures.directory.appendingPathComponent(name).path
        let path = try WrittenFile.at(pieces, named: name)
        defer { WrittenFile.remove(path) }
        #expect(try WrittenFile.warnings(path) == WrittenFile.warnings(original))
        var target = ByteArrayTarget()
        var writer = try container.makeWriter(track: source.track!, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        let junk: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
        #expect(throws: WriteError.self) { try junk.withUnsafeBytes { try writer.append($0, frames: 1536, to: &target) } }
    }
}
