import Foundation
import Testing

/// The committed fixtures, their expected values (recorded from ffprobe, mpg123, mutagen and sox by
/// Tests/Fixtures/make-fixtures.sh), and the ISO conformance streams committed beside them.
public enum Fixtures {
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    public static let expected = directory.appendingPathComponent("expected")
    /// The ISO/IEC 11172-4 streams (Tests/Fixtures/conformance, from minimp3's vectors).
    public static let conformance = directory.appendingPathComponent("conformance")

    /// A generated fixture: its file and its expected-values stem.
    public struct Fixture: CustomTestStringConvertible, Sendable {
        public let file: URL
        public let expectedStem: URL

        public var name: String { file.lastPathComponent }
        public var testDescription: String { name }
        public var bytes: [UInt8] { [UInt8](try! Data(contentsOf: file)) }

        /// `offset,size` rows of the expected packets.
        public var expectedPackets: [PacketRecord] {
            Fixtures.readPackets(expectedStem.appendingPathExtension("packets.csv"))
        }

        /// `offset,size,frames` rows of the expected packets, for fixtures that record frames.
        public var expectedPacketsWithFrames: [[Int64]] {
            let text = try! String(contentsOf: expectedStem.appendingPathExtension("packets.csv"), encoding: .utf8)
            return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Int64($0)! } }
        }

        /// What mutagen read from the fixture's tags (`NAME.tags.json`), or nil when none were recorded.
        public var recordedTags: [String: Any]? {
            guard let data = try? Data(contentsOf: expectedStem.appendingPathExtension("tags.json")) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }

        /// The facts recorded from independent tools, or nil when none were recorded.
        public var facts: [String: Any]? {
            guard let data = try? Data(contentsOf: expectedStem.appendingPathExtension("json")) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// Every generated MPEG fixture with an expected packet list.
    public static let generated: [Fixture] = fixtures(in: directory, expectedIn: expected)

    /// Every AAC (ADTS), AC-3 and E-AC-3 fixture with an expected packet list.
    public static let codecs: [Fixture] = fixtures(in: directory, expectedIn: expected, extensions: ["aac", "ac3", "eac3"])

    /// Every Ogg fixture (Tests/Fixtures/ogg) with an expected packet list (`page,size,frames`).
    public static let ogg: [Fixture] = fixtures(
        in: directory.appendingPathComponent("ogg"), expectedIn: expected.appendingPathComponent("ogg"),
        extensions: ["ogg", "opus", "oga"])

    /// Every native FLAC fixture (Tests/Fixtures/make_flac_fixtures.py) with an expected packet list.
    public static let flac: [Fixture] = fixtures(in: directory, expectedIn: expected, extensions: ["flac"])

    /// Every MP4, M4A and MOV fixture (Tests/Fixtures/make_mp4_fixtures.py) with an expected packet list.
    public static let mp4: [Fixture] = fixtures(
        in: directory.appendingPathComponent("mp4"), expectedIn: expected.appendingPathComponent("mp4"),
        extensions: ["m4a", "mp4", "mov"])

    /// The HE-AAC and HE-AACv2 fixtures (Tests/Fixtures/make_heaac_fixtures.py): AAC-LC in MP4 with SBR, and PS,
    /// signalled explicitly; ffprobe's packets and facts.
    public static let heaac: [Fixture] = fixtures(
        in: directory.appendingPathComponent("heaac"), expectedIn: expected.appendingPathComponent("heaac"),
        extensions: ["m4a"])

    /// heaac-sbr-stereo.m4a's packets and config in CAF, as afconvert lays out HE-AAC ('aach'), with the layout and
    /// packet table the fixture script wrote.
    public static let heaacCAF: Fixture = fixtures(
        in: directory.appendingPathComponent("heaac"), expectedIn: expected.appendingPathComponent("heaac"),
        extensions: ["caf"])[0]

    /// AIFC of Apple's IMA4 ADPCM (Tests/Fixtures/make_pcm_fixtures.py), with ffprobe's packets, one a block.
    public static let ima4: [Fixture] = fixtures(
        in: directory.appendingPathComponent("ima4"), expectedIn: expected.appendingPathComponent("ima4"),
        extensions: ["aifc"])

    /// The IETF FLAC conformance files (Tests/Fixtures/flac-conformance, CC0) with ffprobe's packet lists.
    public static let flacConformance: [Fixture] = fixtures(
        in: directory.appendingPathComponent("flac-conformance"),
        expectedIn: expected.appendingPathComponent("flac-conformance"), extensions: ["flac"])

    /// Every CAF fixture (Tests/Fixtures/make_caf_fixtures.py, in caf/) with ffprobe's packet list.
    public static let caf: [Fixture] = fixtures(
        in: directory.appendingPathComponent("caf"), expectedIn: expected.appendingPathComponent("caf"),
        extensions: ["caf"])

    /// Every WAVE, RF64, AIFF and AIFC fixture (Tests/Fixtures/make_pcm_fixtures.py), whose packet list is one
    /// row: the sample data's offset, size and frames.
    public static let pcm: [Fixture] = fixtures(
        in: directory.appendingPathComponent("pcm"), expectedIn: expected.appendingPathComponent("pcm"),
        extensions: ["wav", "aiff", "aifc"])

    /// Every ISO conformance stream with an expected packet list.
    public static let conformanceStreams: [Fixture] = fixtures(
        in: conformance, expectedIn: expected.appendingPathComponent("conformance"))

    /// Inputs the parser's fuzz target (Fuzz/AudioFileStream) found to break an invariant, each a `FuzzScenario`:
    /// control header, then stream bytes.
    public static let fuzzFindings = findings(in: "fuzz")

    /// Inputs the ICY fuzz target (Fuzz/ICY) found to break an invariant, each an ICY scenario: metaint and chunk
    /// seed, then an ICY body.
    public static let icyFuzzFindings = findings(in: "fuzz-icy")

    /// Inputs the tag-edit fuzz target (Fuzz/TagEdit) found to break an invariant: files whose tags are edited.
    public static let tagEditFuzzFindings = findings(in: "fuzz-tagedit")

    /// Inputs the HLS fuzz target (Fuzz/HLS) found to break an invariant, each a `FuzzScenario`.
    public static let hlsFuzzFindings = findings(in: "fuzz-hls")

    private static func findings(in name: String) -> [URL] {
        let folder = directory.appendingPathComponent(name)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    public static func named(_ name: String) -> Fixture {
        generated.first { $0.name == name }!
    }

    private static func fixtures(in folder: URL, expectedIn expectedFolder: URL,
                                 extensions: Set<String> = ["mp3", "mp2", "bit"]) -> [Fixture] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.compactMap { file -> Fixture? in
            let stem = expectedFolder.appendingPathComponent(file.deletingPathExtension().lastPathComponent)
            guard extensions.contains(file.pathExtension),
                  FileManager.default.fileExists(atPath: stem.appendingPathExtension("packets.csv").path)
            else { return nil }
            return Fixture(file: file, expectedStem: stem)
        }.sorted { $0.name < $1.name }
    }

    private static func readPackets(_ url: URL) -> [PacketRecord] {
        let text = try! String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",")
            return PacketRecord(offset: Int64(fields[0])!, size: Int(fields[1])!)
        }
    }
}

/// A packet's place in the stream, as ffprobe lists it.
public struct PacketRecord: Equatable, CustomStringConvertible {
    public let offset: Int64
    public let size: Int

    public init(offset: Int64, size: Int) {
        self.offset = offset
        self.size = size
    }

    public var description: String { "\(offset)+\(size)" }
}
