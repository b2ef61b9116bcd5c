import FixtureSupport
import Foundation
import Testing

/// `probe`'s duration on the cases where it once disagreed with mutagen and ffprobe on real files, against the
/// tool that states the duration as README ("Duration") defines it: gapless, and the header's length when a header
/// states one (Tests/Fixtures/make_duration_fixtures.py records them).
@Suite struct ProbeDurationTests {
    typealias Runner = AudiostreamRunner

    struct Case: CustomTestStringConvertible, Sendable {
        let file: URL
        let expected: Double
        let truth: String
        /// Whether ffmpeg decodes any of it: without a whole packet (or with a sample table that places none),
        /// `probe` prints the headers and exits 1.
        let hasAudio: Bool
        var testDescription: String { file.lastPathComponent }
    }

    static let cases: [Case] = {
        let folder = Fixtures.directory.appendingPathComponent("duration")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.path < $1.path }.map { file in
            let stem = file.deletingPathExtension().lastPathComponent
            let url = Fixtures.expected.appendingPathComponent("duration/\(stem).json")
            let facts = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            let truth = facts["truth"] as! String
            return Case(file: file, expected: facts[truth] as! Double, truth: truth, hasAudio: facts["decoded"] is Double)
        }
    }()

    @Test func everyCaseIsThere() {
        #expect(Self.cases.count == 19)
    }

    /// Within 50 ms or 1 %, as scripts/compare-durations.py counts agreement.
    @Test(arguments: cases)
    func probeDurationIsTheReferences(case reference: Case) throws {
        let result = try Runner.run(["probe", reference.file.path])
        #expect(result.status == (reference.hasAudio ? 0 : 1))
        let duration = try #require(result.object["duration"] as? Double)
        #expect(abs(duration - reference.expected) <= max(0.05, 0.01 * reference.expected),
                "\(duration) against \(reference.truth)'s \(reference.expected)")
        #expect(result.object["durationIsEstimated"] as? Bool == false)
    }
}
