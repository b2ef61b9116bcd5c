import Foundation
import Testing

/// The committed fixtures, their expected values (recorded from ffprobe, mpg123, mutagen and sox by
/// Tests/Fixtures/make-fixtures.sh), and the shared ISO conformance streams.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let expected = directory.appendingPathComponent("expected")
    /// The ISO/IEC 11172-4 streams, beside the project as ../shared/testdata.
    static let conformance = directory
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/iso-mpeg-conformance")

    /// A generated fixture: its file and its expected-values stem.
    struct Fixture: CustomTestStringConvertible, Sendable {
        let file: URL
        let expectedStem: URL

        var name: String { file.lastPathComponent }
        var testDescription: String { name }
        var bytes: [UInt8] { [UInt8](try! Data(contentsOf: file)) }

        /// `offset,size` rows of the expected packets.
        var expectedPackets: [PacketRecord] {
            Fixtures.readPackets(expectedStem.appendingPathExtension("packets.csv"))
        }

        /// The facts recorded from independent tools, or nil when none were recorded.
        var facts: [String: Any]? {
            guard let data = try? Data(contentsOf: expectedStem.appendingPathExtension("json")) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// Every generated MPEG fixture with an expected packet list.
    static let generated: [Fixture] = fixtures(in: directory, expectedIn: expected)

    /// Every ISO conformance stream with an expected packet list.
    static let conformanceStreams: [Fixture] = fixtures(
        in: conformance, expectedIn: expected.appendingPathComponent("conformance"))

    static func named(_ name: String) -> Fixture {
        generated.first { $0.name == name }!
    }

    private static func fixtures(in folder: URL, expectedIn expectedFolder: URL) -> [Fixture] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.compactMap { file -> Fixture? in
            let stem = expectedFolder.appendingPathComponent(file.deletingPathExtension().lastPathComponent)
            guard ["mp3", "mp2", "bit"].contains(file.pathExtension),
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
struct PacketRecord: Equatable, CustomStringConvertible {
    let offset: Int64
    let size: Int

    var description: String { "\(offset)+\(size)" }
}
