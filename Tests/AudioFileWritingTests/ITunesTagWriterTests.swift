import AudioFileStream
import AudioFileWriting
import Foundation
import FixtureSupport
import Testing

@Suite final class ITunesTagWriterTests {
    /// This test's files, removed when it ends.
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder("m4a-writer")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// What mutagen reads from a file's ilst, as make_mp4_fixtures.py records it: each atom's values (pictures
    /// by MIME type, size and bytes in hex; free-form values as text; number pairs as lists).
    static let mutagenRecord = """
        import json, sys, mutagen.mp4
        record = {}
        for key, values in (mutagen.mp4.MP4(sys.argv[1]).tags or {}).items():
            out = []
            for value in values:
                if isinstance(value, mutagen.mp4.MP4Cover):
                    kind = "image/jpeg" if value.imageformat == mutagen.mp4.MP4Cover.FORMAT_JPEG else "image/png"
                    out.append({"mime": kind, "size": len(value), "hex": bytes(value).hex()})
                elif isinstance(value, mutagen.mp4.MP4FreeForm):
                    out.append(bytes(value).decode("utf-8"))
                elif isinstance(value, tuple):
                    out.append(list(value))
                else:
                    out.append(value)
            record[key] = out
        print(json.dumps(record))
        """

    static func record(_ path: String) throws -> [String: Any] {
        let json = try M4ATools.mutagen(mutagenRecord, path)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// mutagen's tagged fixture.
    static let reference = Fixtures.directory.appendingPathComponent("mp4/aac-tagged.m4a")

    /// The tags of mutagen's tagged fixture, read by our parser and written again, read back with mutagen as
    /// mutagen read the fixture (save the flags and free-form keys the common keys do not hold), and with our
    /// parser as the same common keys.
    @Test func fixtureTagsWrittenAgainReadBackAlike() throws {
        let fixture = try #require(Fixtures.mp4.first { $0.file.path == Self.reference.path })
        let parsed = try ParsedTrack(fixture.file)
        let tags = parsed.tags
        let path = folder.appendingPathComponent("tagged.m4a").path
        try parsed.writeM4A(0..<parsed.packets.count, leadingTrim: 0, trailingTrim: 0, tags: tags, to: path)

        #expect(try M4ATools.warningsWithArtwork(path) == M4ATools.warningsWithArtwork(Self.reference.path))
        var expected = try #require(fixture.facts?["tags"] as? [String: Any])
        expected["cpil"] = nil
        expected["----:com.apple.iTunes:MOOD"] = nil
        var written = try Self.record(path)
        #expect(written["----:com.apple.iTunes:iTunSMPB"] != nil)
        written["----:com.apple.iTunes:iTunSMPB"] = nil
        #expect(NSDictionary(dictionary: written) == NSDictionary(dictionary: expected))
        #expect(try ParsedTrack(URL(fileURLWithPath: path)).tags == tags)
    }

    /// Text in any script, a date as the recorder writes it, and PNG artwork read back as set.
    @Test func textAndArtworkAsSet() throws {
        let picture = folder.appendingPathComponent("cover.png").path
        _ = try FFmpegTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:size=8x8",
                                          "-frames:v", "1", picture])
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: picture)))
        var tags = NormalizedTags()
        tags.title = "Ωμέγα — 東京の夜 🎶"
        tags.artist = "Ансамбль"
        tags.album = "Radio Ελλάδα"
        tags.year = "2026-11-27T13:00:00"
        tags.trackNumber = 7
        tags.bpm = 98
        tags.artwork = Artwork(mimeType: "image/png", pictureType: 3, description: "", size: png.count, data: png)
        let parsed = try ParsedTrack(Fixtures.aacWithoutNoiseSubstitution)
        let path = folder.appendingPathComponent("tagged.m4a").path
        try parsed.writeM4A(0..<10, leadingTrim: 0, trailingTrim: 0, tags: tags, to: path)

        // The reference: ffmpeg's own M4A of the same audio with the same picture as its cover.
        let reference = folder.appendingPathComponent("reference.m4a").path
        _ = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", path, "-i", picture, "-map", "0:a", "-map", "1",
                                          "-c", "copy", "-disposition:v", "attached_pic", reference])
        #expect(try M4ATools.warningsWithArtwork(path) == M4ATools.warningsWithArtwork(reference))
        let written = try Self.record(path)
        #expect(written["\u{A9}nam"] as? [String] == [tags.title!])
        #expect(written["\u{A9}ART"] as? [String] == [tags.artist!])
        #expect(written["\u{A9}alb"] as? [String] == [tags.album!])
        #expect(written["\u{A9}day"] as? [String] == [tags.year!])
        #expect(written["trkn"] as? [[Int]] == [[7, 0]])
        #expect(written["tmpo"] as? [Int] == [98])
        let cover = try #require((written["covr"] as? [[String: Any]])?.first)
        #expect(cover["mime"] as? String == "image/png")
        #expect(cover["hex"] as? String == png.map { String(format: "%02x", $0) }.joined())
    }
}
