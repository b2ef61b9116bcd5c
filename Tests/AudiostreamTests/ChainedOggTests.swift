import FixtureSupport
import Foundation
import Testing

/// A chained Ogg file (RFC 3533 §4: links one after another, as `cat a.opus b.opus` makes one) lasts all its
/// links, and a tag edit applies to every link, as libopus' and libvorbis' own tools read them.
@Suite struct ChainedOggTests {
    /// Two links of 1.5 s and 2.25 s, encoded by opus-tools or vorbis-tools, joined as they are.
    static func chain(_ ext: String, in folder: URL) throws -> String {
        var links: [Data] = []
        for (index, seconds) in ["1.5", "2.25"].enumerated() {
            let wav = folder.appendingPathComponent("\(index).wav").path
            let link = folder.appendingPathComponent("\(index).\(ext)").path
            _ = try FFmpegTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i",
                                              "sine=frequency=\(440 * (index + 1)):sample_rate=48000:duration=\(seconds)",
                                              "-ac", "2", "-y", wav])
            _ = ext == "opus" ? try FFmpegTool.run("opusenc", ["--quiet", "--title", "Link \(index)", wav, link])
                : try FFmpegTool.run("oggenc", ["--quiet", "-t", "Link \(index)", "-o", link, wav])
            links.append(try Data(contentsOf: URL(fileURLWithPath: link)))
        }
        let path = folder.appendingPathComponent("chain.\(ext)").path
        try links.reduce(Data(), +).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// libopus' (opusdec) or libvorbis' (oggdec) decode of every link, as 16-bit samples.
    static func decode(_ path: String) throws -> [Int16] {
        let output = path.hasSuffix(".opus")
            ? try FFmpegTool.run("opusdec", ["--quiet", "--rate", "48000", "--no-dither", path, "-"]).output
            : try FFmpegTool.run("oggdec", ["--quiet", "--raw", "--output", "-", path]).output
        return output.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test(arguments: ["opus", "ogg"])
    func lastsEveryLink(_ ext: String) throws {
        let folder = try makeTemporaryFolder("chain")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try Self.chain(ext, in: folder)
        let result = try AudiostreamRunner.run(["probe", chain])
        try #require(result.status == 0, "\(result.standardError)")
        let duration = try #require(result.object["duration"] as? Double)
        // The reference decoders give each link its own gapless length; 2 channels at 48 kHz.
        let decoded = Double(try Self.decode(chain).count / 2) / 48000
        #expect(decoded > 3.7)
        #expect(abs(duration - decoded) < 0.5 / 48000, "probe \(duration) s, decoded \(decoded) s")
    }

    @Test(arguments: ["opus", "ogg"])
    func editRetitlesEveryLink(_ ext: String) throws {
        let folder = try makeTemporaryFolder("chain-tags")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try Self.chain(ext, in: folder)
        let edited = folder.appendingPathComponent("edited.\(ext)").path
        let result = try AudiostreamRunner.run(["tags", chain, "--set", "title=Both", "-o", edited])
        try #require(result.status == 0, "\(result.standardError)")
        let info = try FFmpegTool.run(ext == "opus" ? "opusinfo" : "ogginfo", [edited])
        let text = (String(decoding: info.output, as: UTF8.self) + info.errors).lowercased()
        #expect(text.components(separatedBy: "title=both").count - 1 == 2, "\(text)")
        #expect(!text.contains("title=link"), "\(text)")
        #expect(!text.contains("warning") && !text.contains("error"), "\(text)")
        #expect(try Self.decode(edited) == Self.decode(chain))
    }
}
