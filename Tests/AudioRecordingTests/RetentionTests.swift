import AudioRecording
import Foundation
import Testing

/// Retention: the oldest pieces go by age or by total size, and nothing the template cannot name ever does.
@Suite struct RetentionTests {
    /// A folder of pieces and bystanders, each `(path, bytes, days old)`.
    static func folder(_ files: [(String, Int, Double)]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID())")
        for (name, size, age) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(count: size).write(to: url)
            let date = Date(timeIntervalSinceNow: -age * 86_400)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        }
        return folder
    }

    static func remaining(in folder: URL) -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)!
        return Set(enumerator.compactMap { $0 as? String }.filter { $0.contains(".") })
    }

    static let files: [(String, Int, Double)] = [
        ("2026/radio-001.mp3", 100, 50), ("2026/radio-002.mp3", 100, 43), ("2026/radio-003.mp3", 100, 10),
        ("2026/radio-004.mp3", 100, 1), ("2026/radio-005.mp3.part", 100, 60), ("2026/notes.txt", 100, 90),
        ("2026/other-001.mp3", 100, 90), ("radio-000.mp3", 100, 90),
        // Another stream's pieces, whose name starts with this one's.
        ("2026/radio-archive-001.mp3", 100, 90), ("2026/radio-2-001.mp3", 100, 90),
    ]

    @Test func piecesOlderThanTheDaysGo() throws {
        let folder = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try PieceNameTemplate(folder.path + "/%Y/{stream}-{n}.mp3")
        let result = Retention(days: 42).apply(to: template, stream: "radio", now: Date().timeIntervalSince1970)
        #expect(result.deleted.count == 2)
        #expect(result.errors.isEmpty)
        #expect(Self.remaining(in: folder) == [
            "2026/radio-003.mp3", "2026/radio-004.mp3", "2026/radio-005.mp3.part", "2026/notes.txt",
            "2026/other-001.mp3", "radio-000.mp3", "2026/radio-archive-001.mp3", "2026/radio-2-001.mp3",
        ])
    }

    @Test func theOldestGoUntilThePiecesFitTheBytes() throws {
        let folder = try Self.folder(Self.files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try PieceNameTemplate(folder.path + "/%Y/radio-{n}.mp3")
        Retention(bytes: 250).apply(to: template, stream: "radio", now: Date().timeIntervalSince1970)
        #expect(Self.remaining(in: folder) == [
            "2026/radio-003.mp3", "2026/radio-004.mp3", "2026/radio-005.mp3.part", "2026/notes.txt",
            "2026/other-001.mp3", "radio-000.mp3", "2026/radio-archive-001.mp3", "2026/radio-2-001.mp3",
        ])
    }

    /// Stream `jazz` beside stream `jazz-archive`, named by time: only `jazz`'s pieces go, and a piece whose name
    /// was taken (`-2`) is still one of them.
    @Test func anotherStreamWhoseNameStartsAlikeKeepsItsPieces() throws {
        let folder = try Self.folder([
            ("jazz-20261201-1000.mp3", 100, 30), ("jazz-20261201-1000-2.mp3", 100, 30),
            ("jazz-archive-20261201-1000.mp3", 100, 30), ("jazz-20261201-1000.mp3.part", 100, 30),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try PieceNameTemplate(folder.path + "/{stream}-%Y%m%d-%H%M.mp3")
        let result = Retention(days: 1).apply(to: template, stream: "jazz", now: Date().timeIntervalSince1970)
        #expect(Set(result.deleted.map { URL(fileURLWithPath: $0).lastPathComponent })
            == ["jazz-20261201-1000.mp3", "jazz-20261201-1000-2.mp3"])
        #expect(Self.remaining(in: folder) == ["jazz-archive-20261201-1000.mp3", "jazz-20261201-1000.mp3.part"])
    }
}
