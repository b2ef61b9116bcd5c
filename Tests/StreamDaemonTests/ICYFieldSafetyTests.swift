import AudioStreamProtocol
import Foundation
@testable import StreamDaemon
import Testing

/// Titles and URLs from a DJ's tags, an upstream station or the admin call reach listeners' ICY blocks as the fields
/// they were set as: no control character, and no quote that would end a field early and start another
/// (docs/operations.md: each control character is a space, and `'` before `;` is written `’`).
@Suite struct ICYFieldSafetyTests {
    static let hostileTitles = [
        "Evil';StreamUrl='http://evil.example/';", "';", "x'", "'';", "It's on; 'quoted';",
        "NUL\0CR\rLF\nESC\u{1b}[31mDEL\u{7f}CSI\u{9b}TAB\t", "Tail';",
    ]

    /// The fields of a block's text as FFmpeg's HTTP reader takes them (libavformat/http.c, `update_metadata`): a key
    /// up to `='`, its value up to the next `';`, again from there.
    static func ffmpegFields(_ text: String) -> [(key: String, value: String)] {
        var fields: [(String, String)] = []
        var rest = Substring(text)
        while let open = rest.range(of: "='"), let close = rest[open.upperBound...].range(of: "';") {
            fields.append((String(rest[..<open.lowerBound]), String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return fields
    }

    /// The rule of docs/operations.md, applied to `text`.
    static func carried(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            .replacingOccurrences(of: "';", with: "’;")
    }

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    @Test(arguments: hostileTitles, [nil, "http://a.example/';StreamTitle='forged", "http://b.example/\r\n"])
    func aBlockHoldsTheFieldsSetAndNoControlCharacter(title: String, url: String?) throws {
        var playing = try #require(NowPlaying(ICYMetadata(text: "StreamTitle='';")))
        playing.title = title
        playing.url = url
        let block = ICYMetadataBlock.encode(playing)
        let text = try #require(String(validating: block.dropFirst().prefix { $0 != 0 }, as: UTF8.self))
        #expect(!Self.hasControl(text), "\(text.debugDescription)")
        let fields = Self.ffmpegFields(text)
        #expect(fields.map(\.key) == (url == nil ? ["StreamTitle"] : ["StreamTitle", "StreamUrl"]), "\(text)")
        #expect(fields.first?.value == Self.carried(title))
        #expect(fields.dropFirst().first?.value == url.map(Self.carried))
        let ours = ICYMetadata(text: text)
        #expect(ours.fields.count == fields.count, "\(ours.fields)")
        #expect(ours.streamTitle == Self.carried(title))
    }

    /// The admin call's title was made into block text and read again: a `';StreamUrl='` in it became a field.
    @Test func anAdminTitleReachesSubscribersAndFFmpegAsOneField() throws {
        let (daemon, port) = try AdminMetadataTests.radio()
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        let title = "Evil';StreamUrl='http://evil.example/';\u{1b}[31m"
        let encoded = title.utf8.map { String(format: "%%%02X", $0) }.joined()
        #expect(try AdminMetadataTests.call(port, "mount=/radio&mode=updinfo&song=\(encoded)",
                                            folder: daemon.folder).status == 200)
        try daemon.waitUntil("the title") { subscriber.events.contains { IcecastTests.title($0) != nil } }
        let event = try #require(subscriber.events.first { IcecastTests.title($0) != nil })
        #expect(event["streamTitle"] as? String == Self.carried(title))
        #expect(event["streamUrl"] == nil || event["streamUrl"] is NSNull, "\(event)")

        // FFmpeg, as a listener, logs each field of each block it reads.
        let listened = try ToolProcess.run("ffmpeg", ["-v", "verbose", "-icy", "1", "-rw_timeout", "20000000",
                                                      "-i", "http://127.0.0.1:\(port)/radio", "-t", "1", "-f", "null", "-"],
                                           folder: daemon.folder, name: "ffmpeg-listener")
        let updates = listened.errors.split(separator: "\n").compactMap { line in
            line.range(of: "Metadata update for ").map { String(line[$0.upperBound...]) }
        }
        #expect(updates == ["StreamTitle: \(Self.carried(title))"], "\(listened.errors)")
    }
}
