import AudioFileStream
@testable import AudioFileWriting
import FixtureSupport
import Foundation
import Testing

/// FLAC files written from our parser's packets, checked by `flac`, `metaflac`, ffprobe, ffmpeg and mutagen.
@Suite struct FLACWriterTests {
    /// Fixed block sizes from 16 to 4096, a short last frame, 12, 16 and 24 bits, an uncommon rate, and
    /// variable block sizes (sample numbers in the headers).
    static let fixtures = [
        "flac-44k-stereo.flac", "flac-48k-24bit.flac", "flac-short-last-frame.flac", "flac-small-blocks.flac",
        "flac-conformance/subset-03-blocksize-16.flac", "flac-conformance/subset-19-samplerate-35467hz.flac",
        "flac-conformance/subset-22-12-bit-per-sample.flac",
        "flac-conformance/subset-24-variable-blocksize-file-created-with-flake-revision-264.flac",
    ]

    @Test func everyFixtureIsWritten() throws {
        var checked = 0
        for name in Self.fixtures {
            try checkWholeAndThreePieces(name)
            checked += 1
        }
        #expect(checked == 8)
    }

    /// The whole file and three consecutive pieces of it (cut at a third and two thirds of its frames): each is
    /// a valid FLAC file whose STREAMINFO states what ffmpeg decodes from it, numbered from 0; the pieces'
    /// decodes joined are the whole's; the whole's MD5 is its encoder's.
    private func checkWholeAndThreePieces(_ name: String) throws {
        let source = Fixtures.directory.appendingPathComponent(name)
        let parsed = try ParsedTrack([UInt8](try Data(contentsOf: source)))
        let bits = try #require(parsed.track.cookie.withUnsafeBytes { FLACStreamInfo($0) }).bitsPerSample
        let channels = Int(parsed.track.format.channelsPerFrame)
        let floats = try LosslessTools.decode(source, as: "f32le")
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }

        let count = parsed.packets.count
        let ranges = [0..<count, 0..<count / 3, count / 3..<2 * count / 3, 2 * count / 3..<count]
        var pieces: [UInt8] = []
        var whole: [UInt8] = []
        for (index, range) in ranges.enumerated() {
            let packets = parsed.packets[range]
            let firstFrame = parsed.packets[..<range.lowerBound].reduce(0) { $0 + $1.frames }
            let frames = packets.reduce(0) { $0 + $1.frames }
            var digest = AudioMD5(bitsPerSample: bits)
            floats.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: Float.self)
                let range = Int(firstFrame) * channels..<Int(firstFrame + frames) * channels
                digest.update(UnsafeBufferPointer(rebasing: samples[range]))
            }
            let file = folder.appendingPathComponent("\(index).flac")
            try writeFile(file, track: parsed.track, packets: packets,
                          options: WriterOptions(flacSamplesDigest: StatedDigest(md5: digest)))

            let test = try LosslessTools.run("flac", ["-t", "-s", file.path])
            #expect(test.status == 0 && test.errors.isEmpty, "\(name) piece \(index): flac -t: \(test.errors)")
            #expect(try LosslessTools.ffprobeWarnings(file) == "", "\(name) piece \(index)")
            let decoded = try LosslessTools.decode(file, as: "s32le")
            let stated = try LosslessTools.run("metaflac", ["--show-total-samples", "--show-md5sum", file.path])
            let lines = String(decoding: stated.output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines == ["\(decoded.count / 4 / channels)", try md5(Self.flacSamples(decoded, bits: bits))],
                    "\(name) piece \(index)")
            #expect(Int64(decoded.count / 4 / channels) == frames)
            try expectNumberedFromZero(file, name: "\(name) piece \(index)")
            if index == 0 {
                whole = decoded
                let encoder = try LosslessTools.run("metaflac", ["--show-md5sum", source.path])
                #expect(lines.last.map { $0 + "\n" } == String(decoding: encoder.output, as: UTF8.self))
            } else {
                pieces += decoded
            }
            let reread = try ParsedTrack([UInt8](try Data(contentsOf: file)))
            #expect(reread.packets.count == packets.count && reread.frames == frames)
        }
        #expect(pieces == whole, "\(name): the pieces' samples joined are the whole's")
    }

    /// ffmpeg's timestamps come from the frame headers' numbers: the file's first packet is at 0 and each goes
    /// on from the one before.
    private func expectNumberedFromZero(_ file: URL, name: String) throws {
        let rows = try LosslessTools.probe(file, "packet=pts,duration").map { Int($0) ?? -1 }
        let timestamps = stride(from: 0, to: rows.count, by: 2).map { rows[$0] }
        let durations = stride(from: 1, to: rows.count, by: 2).map { rows[$0] }
        let expected = durations.dropLast().reduce(into: [0]) { $0.append($0.last! + $1) }
        #expect(!timestamps.isEmpty && timestamps == expected, "\(name)")
    }

    /// ffmpeg's 32-bit samples as FLAC's MD5 takes them: at their own depth, little-endian in whole bytes.
    static func flacSamples(_ decoded: [UInt8], bits: Int) -> [UInt8] {
        let bytesPerSample = (bits + 7) / 8
        var samples: [UInt8] = []
        samples.reserveCapacity(decoded.count / 4 * bytesPerSample)
        decoded.withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: Int32.self) {
                let value = Int32(littleEndian: sample) >> (32 - bits)
                for byte in 0..<bytesPerSample { samples.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
            }
        }
        return samples
    }

    /// Frames that came without a STREAMINFO get one made from the DataFormat, which `flac` takes, stating the
    /// samples ffmpeg decodes.
    @Test func framesWithoutStreamInfoGetOne() throws {
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("flac-frames-only.flac").bytesForTest)
        #expect(parsed.track.cookie.isEmpty)
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("made.flac")
        try writeFile(file, track: parsed.track, packets: parsed.packets[...])
        let test = try LosslessTools.run("flac", ["-t", "-s", file.path])
        // No digest was given: flac says it cannot check one, and nothing else.
        #expect(test.status == 0 && !test.errors.contains("ERROR"), "\(test.errors)")
        #expect(try LosslessTools.ffprobeWarnings(file) == "")
        let decoded = try LosslessTools.decode(file, as: "s32le")
        let stated = try LosslessTools.run("metaflac", ["--show-total-samples", "--show-sample-rate", "--show-bps",
                                                        "--show-channels", file.path])
        #expect(String(decoding: stated.output, as: UTF8.self) == "\(decoded.count / 8)\n44100\n16\n2\n")
    }

    /// A stream whose rate and channels change keeps its first STREAMINFO as its cookie: a file of the frames
    /// after the change states their own format, and one frame of another format in a file is refused.
    @Test func streamInfoStatesTheFramesFormat() throws {
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("flac-rate-change.flac").bytesForTest)
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("after.flac")
        try writeFile(file, track: parsed.track, packets: parsed.packets[8...])
        let test = try LosslessTools.run("flac", ["-t", "-s", file.path])
        #expect(test.status == 0 && !test.errors.contains("ERROR"), "\(test.errors)")
        #expect(try LosslessTools.ffprobeWarnings(file) == "")
        let stated = try LosslessTools.run("metaflac", ["--show-sample-rate", "--show-channels", "--show-total-samples",
                                                        file.path])
        #expect(String(decoding: stated.output, as: UTF8.self) == "22050\n1\n4096\n")
        #expect(try LosslessTools.decode(file, as: "s32le").count == 4096 * 4)

        var target = ByteArrayTarget()
        var writer = try FLACWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        for packet in parsed.packets[6..<8] {
            try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
        }
        #expect(throws: WriteError.self) {
            try parsed.packets[8].bytes.withUnsafeBytes { try writer.append($0, frames: 1024, to: &target) }
        }
    }

    @Test func tagsAndArtworkReadBackWithMutagen() throws {
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("flac-small-blocks.flac").bytesForTest)
        var tags = NormalizedTags()
        tags.title = "Nocturne – 夜想曲"
        tags.artist = "Zoë Ørsted"
        tags.album = "Radio Ελλάδα"
        tags.year = "2026-11-27T13:00:00"
        let picture: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + (0..<300).map { UInt8($0 % 251) }
        tags.artwork = Artwork(mimeType: "image/png", pictureType: 3, description: "cover", size: picture.count,
                               data: picture)
        let folder = try makeTemporaryFolder("writer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tagged.flac")
        try writeFile(file, track: parsed.track, tags: tags, packets: parsed.packets[...])
        let script = """
            import sys, mutagen.flac
            f = mutagen.flac.FLAC(sys.argv[1])
            p = f.pictures[0]
            print("\\n".join([f["title"][0], f["artist"][0], f["album"][0], f["date"][0], p.mime, str(p.type), p.desc,
                              p.data.hex()]))
            """
        let result = try LosslessTools.run("python3", ["-c", script, file.path])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init) == [
            "Nocturne – 夜想曲", "Zoë Ørsted", "Radio Ελλάδα", "2026-11-27T13:00:00", "image/png", "3", "cover",
            picture.map { String(format: "%02x", $0) }.joined(),
        ])
        #expect(try ParsedTrack([UInt8](try Data(contentsOf: file))).tags == tags)
    }

    /// A file never finished (a crash) states no totals and still reads, with our parser, to its last whole frame.
    @Test func anUnfinishedFileReadsToItsLastWholeFrame() throws {
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("flac-small-blocks.flac").bytesForTest)
        let packets = parsed.packets[5..<15]
        var target = ByteArrayTarget()
        var writer = try FLACWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        var ends: [Int] = []
        for packet in packets {
            try packet.bytes.withUnsafeBytes { try writer.append($0, frames: packet.frames, to: &target) }
            ends.append(target.bytes.count)
        }
        var cuts = 0
        for cut in stride(from: ends[0] - 40, through: target.bytes.count, by: 37) {
            let read = try ParsedTrack(Array(target.bytes[..<cut]))
            // A frame followed by part of the next one's header is held back by the parser as possibly cut.
            let whole = ends.filter { end in
                let nextHeader = target.bytes.withUnsafeBytes { FLACFrameHeader(bytes: $0, at: end) }
                return end == cut || end + (nextHeader?.length ?? 0) <= cut
            }.count
            #expect(read.packets.count == whole, "cut at \(cut), frames end at \(ends)")
            cuts += 1
        }
        #expect(cuts > 20)
    }

    @Test func theStreamHeaderIsTheDaemonsToo() {
        let streamInfo = [UInt8](repeating: 7, count: 34)
        let blocks = [.padding(3), FLACMetadataBlock(type: .picture, body: [1])]
        let header = FLACMetadataBlock.streamHeader(streamInfo: streamInfo, followedBy: blocks)
        // RFC 9639 §8.1: a last-block flag and type, a 24-bit length, in each block header.
        #expect(header == Array("fLaC".utf8) + [0, 0, 0, 34] + streamInfo + [1, 0, 0, 3, 0, 0, 0] + [0x86, 0, 0, 1, 1])
    }

    /// RFC 9639 §9.1.5's examples, and the lengths at each boundary.
    @Test func codedNumbers() {
        func coded(_ value: Int64) -> [UInt8] {
            var bytes: [UInt8] = []
            FLACCodedNumber.append(value, to: &bytes)
            return bytes
        }
        #expect(coded(0) == [0])
        #expect(coded(0x7F) == [0x7F])
        #expect(coded(0x80) == [0xC2, 0x80])
        #expect(coded(0x7FF) == [0xDF, 0xBF])
        #expect(coded(0x800) == [0xE0, 0xA0, 0x80])
        #expect(coded(0xFFFF).count == 3 && coded(0x10000).count == 4)
        #expect(coded(0x7FFF_FFFF) == [0xFD] + [UInt8](repeating: 0xBF, count: 5))
        #expect(coded(0x8000_0000) == [0xFE, 0x82] + [UInt8](repeating: 0x80, count: 5))
        #expect(coded(FLACCodedNumber.largest) == [0xFE] + [UInt8](repeating: 0xBF, count: 6))
    }

    @Test func junkAndLyingCookiesAreRefused() throws {
        let parsed = try ParsedTrack(Fixtures.directory.appendingPathComponent("flac-small-blocks.flac").bytesForTest)
        var target = ByteArrayTarget()
        var lying = parsed.track
        lying.cookie = [UInt8](repeating: 0, count: 34)
        #expect(throws: WriteError.self) {
            try FLACWriter(track: lying, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        }
        lying.cookie = Array(parsed.track.cookie.prefix(20))
        #expect(throws: WriteError.self) {
            try FLACWriter(track: lying, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        }
        var writer = try FLACWriter(track: parsed.track, tags: NormalizedTags(), leadingTrim: 0, to: &target)
        var damagedBody = parsed.packets[3].bytes, damagedHeader = parsed.packets[3].bytes
        damagedBody[damagedBody.count / 2] ^= 0xFF
        damagedHeader[4] ^= 0x01
        for bytes in [damagedBody, damagedHeader, Array(parsed.packets[3].bytes.prefix(5)),
                      [UInt8](repeating: 0xFF, count: 40)] {
            #expect(throws: WriteError.self) {
                try bytes.withUnsafeBytes { try writer.append($0, frames: parsed.packets[3].frames, to: &target) }
            }
        }
    }
}

extension URL {
    var bytesForTest: [UInt8] { [UInt8](try! Data(contentsOf: self)) }
}

/// A digest made beforehand from the decoded whole, which the writer states as it is.
final class StatedDigest: FLACSamplesDigest {
    let md5: AudioMD5

    init(md5: AudioMD5) {
        self.md5 = md5
    }

    func add(_ packet: UnsafeRawBufferPointer, frames: Int64) {}

    func finish() -> AudioMD5 { md5 }
}
