import FixtureSupport
import Foundation
import Testing

/// The tag-edit fuzz target's checks (`TagEditInvariants`, shared with Fuzz/TagEdit) on the inputs found to break
/// them (Tests/Fixtures/fuzz-tagedit), and on a fixture of each kind of file whose tags are edited, so that a
/// finding means a bug, not a wrong check.
@Suite struct TagEditFuzzRegressionTests {
    static let editable: [URL] = {
        let kinds: Set<String> = ["mp3", "aac", "flac", "ogg", "opus", "oga", "wav", "aif", "aiff", "aifc", "m4a", "mp4", "mov"]
        let folders = ["", "record", "writing", "ogg", "mp4", "pcm"].map { Fixtures.directory.appendingPathComponent($0) }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { kinds.contains($0.pathExtension) }
        }.sorted { $0.path < $1.path }
    }()

    @Test func everyKindOfFileIsChecked() {
        let kinds = Set(Self.editable.map(\.pathExtension))
        #expect(kinds.isSuperset(of: ["mp3", "aac", "flac", "ogg", "opus", "wav", "m4a"]), "\(kinds)")
        #expect(Fixtures.tagEditFuzzFindings.count == 6)
    }

    @Test(arguments: editable)
    func fixtureKeepsTheInvariants(file: URL) throws {
        try TagEditInvariants.check([UInt8](Data(contentsOf: file)))
    }

    @Test(arguments: Fixtures.tagEditFuzzFindings)
    func findingKeepsTheInvariants(finding: URL) throws {
        try TagEditInvariants.check([UInt8](Data(contentsOf: finding)))
    }
}
