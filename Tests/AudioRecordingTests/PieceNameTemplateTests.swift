@testable import AudioRecording
import Foundation
import Testing

/// Piece names: strftime fields in local time (as `date` prints them), the stream's fields made safe.
@Suite struct PieceNameTemplateTests {
    /// 2023-11-14 22:13:20 UTC.
    static let time = 1_700_000_000.25

    /// What `date` prints for `format` at `time`, in the same time zone as the test.
    static func date(_ format: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-d", "@\(Int(time))", "+\(format)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .newlines)
    }

    @Test func fieldsAreFilledAndValuesMadeSafe() throws {
        let template = try PieceNameTemplate("rec/%Y/%m/%d/{stream}-%H%M-{n}-{artist} - {title}.mp3")
        let path = template.path(time: Self.time, stream: "jazz", number: 7, title: "Back {in} Black 100%d",
                                 artist: "AC/DC", container: .mp3)
        #expect(path == "rec/\(try Self.date("%Y/%m/%d"))/jazz-\(try Self.date("%H%M"))-007-AC_DC - Back (in) Black 100%d.mp3")
        #expect(template.container == .mp3)
    }

    @Test func aTitleIsOneComponentWithoutControlsOrLeadingDots() throws {
        let template = try PieceNameTemplate("{title}")
        let title = "..\u{1}/etc/passwd" + String(repeating: "é", count: 100)
        let path = template.path(time: Self.time, stream: "s", number: 1, title: title, artist: nil,
                                 container: .flac)
        #expect(!path.hasPrefix("."))
        #expect(!path.dropLast(5).contains("/"))
        #expect(path.hasPrefix("__etc_passwdé"))
        #expect(path.utf8.count <= 120 + 5)
        #expect(template.path(time: Self.time, stream: "s", number: 1, title: nil, artist: nil,
                              container: .ogg) == "untitled.ogg")
    }

    /// C1 controls (U+0085 is a line break to some tools) and bidirectional overrides (U+202E shows
    /// `evil\u{202E}3pm.exe` as `evilexe.mp3`) are taken out as C0 controls are.
    @Test func aTitleHoldsNoC1ControlsOrBidirectionalFormatting() throws {
        let template = try PieceNameTemplate("{title}.mp3")
        let title = "a\u{85}b\u{9B}c\u{202E}d\u{2066}e\u{200F}f\u{61C}g"
        let path = template.path(time: Self.time, stream: "s", number: 1, title: title, artist: nil,
                                 container: .mp3)
        #expect(path == "a_b_c_d_e_f_g.mp3")
    }

    @Test func withoutAnExtensionEachPieceTakesItsCodecs() throws {
        let template = try PieceNameTemplate("/srv/rec/{stream}-%Y")
        #expect(template.container == nil)
        #expect(template.path(time: Self.time, stream: "news", number: 1, title: nil, artist: nil,
                              container: .m4a) == "/srv/rec/news-\(try Self.date("%Y")).m4a")
        #expect(template.root == "/srv/rec")
    }

    /// Fields that grow the name many times over (%c is a whole date) still give the name, never an empty one.
    @Test func fieldsThatGrowTheNameStillFillIt() throws {
        let template = try PieceNameTemplate(String(repeating: "%c", count: 50) + ".mp3")
        let path = template.path(time: Self.time, stream: "s", number: 1, title: nil, artist: nil, container: .mp3)
        #expect(path == String(repeating: try Self.date("%c"), count: 50) + ".mp3")
    }

    @Test func anExtensionWithoutAContainerIsRefused() {
        #expect(throws: RecordingError.self) { try PieceNameTemplate("rec/{stream}.wma") }
        #expect(throws: RecordingError.self) { try PieceNameTemplate("rec/") }
    }

    /// Retention deletes only what the template can name: its pattern matches every path it makes.
    @Test func thePatternMatchesWhatTheTemplateNames() throws {
        let template = try PieceNameTemplate("rec/%Y/{stream}-[%H]-{n}.mp3")
        let path = template.path(time: Self.time, stream: "jazz", number: 12, title: nil, artist: nil,
                                 container: .mp3)
        let pattern = PieceNamePattern(template, stream: "jazz")
        #expect(pattern.matches(path))
        #expect(!pattern.matches("rec/2023/other-[13]-012.mp3"))
        #expect(!pattern.matches("rec/2023/x/jazz-[13]-012.mp3"))
    }

    /// `{ext}` is the piece's container; a template's extension gives way to the container of a codec it cannot
    /// hold, and retention still knows the piece as the template's.
    @Test func theExtensionIsThePiecesContainer() throws {
        let free = try PieceNameTemplate("rec/{stream}-{n}.{ext}")
        #expect(free.container == nil)
        #expect(free.path(time: Self.time, stream: "jazz", number: 2, title: nil, artist: nil, container: .opus)
            == "rec/jazz-002.opus")
        let fixed = try PieceNameTemplate("rec/{stream}-{n}.mp3")
        let other = fixed.path(time: Self.time, stream: "jazz", number: 3, title: nil, artist: nil, container: .ogg)
        #expect(other == "rec/jazz-003.ogg")
        #expect(PieceNamePattern(fixed, stream: "jazz").matches(other))
        #expect(PieceNamePattern(free, stream: "jazz").matches("rec/jazz-002.opus"))
        #expect(!PieceNamePattern(free, stream: "jazz").matches("rec/jazz-002.txt"))
    }
}
