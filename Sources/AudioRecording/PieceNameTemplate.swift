#if canImport(Glibc)
import Glibc
#endif
import AudioFileWriting

/// How a recording names its pieces: a path whose strftime fields (`%Y`, `%H` …) take the piece's start in local
/// time, with `{stream}`, `{n}` (the piece number, 3 digits), `{title}` and `{artist}` made safe for a file name,
/// and `{ext}`, the extension of the piece's container.
public struct PieceNameTemplate: Equatable, Sendable {
    public let template: String
    /// The container the template's extension names; nil when it names none (or is `{ext}`), and each piece
    /// then takes its codec's natural one.
    public let container: Container?

    /// - Throws: `RecordingError.badTemplate` for an empty template, one ending in `/`, or an extension that no
    ///   container has.
    public init(_ template: String) throws {
        guard !template.isEmpty, !template.hasSuffix("/") else {
            throw RecordingError.badTemplate(template, "it names no file")
        }
        self.template = template
        let name = template.split(separator: "/").last.map(String.init) ?? template
        if let dot = name.lastIndex(of: "."), !name[dot...].contains(where: { "%{}".contains($0) }) {
            guard let container = Container(fileName: name) else {
                throw RecordingError.badTemplate(template, "no container is named \(name[dot...])")
            }
            self.container = container
        } else {
            container = nil
        }
    }

    /// A template that names exactly `path`, whatever it holds.
    public init(literal path: String) throws {
        try self.init(path.replacing("%", with: "%%"))
    }

    /// The folder that holds every piece: the template's path before its first field.
    public var root: String {
        let fixed = template.prefix { $0 != "%" && $0 != "{" }
        guard let slash = fixed.lastIndex(of: "/") else { return "." }
        return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
    }

    /// The path of a piece of `container` starting at `time` (seconds since 1970). Its extension is added when
    /// the template names none, and replaces the template's when that names another container (a DJ's Ogg on a
    /// mount recorded as `.mp3`).
    public func path(time: Double, stream: String, number: Int, title: String?, artist: String?,
                     container: Container) -> String {
        var pattern = template
        let number = String(number)
        let fields = [
            ("{stream}", Self.safe(stream, empty: "stream")),
            ("{n}", String(repeating: "0", count: max(0, 3 - number.count)) + number),
            ("{title}", Self.safe(title, empty: "untitled")),
            ("{artist}", Self.safe(artist, empty: "unknown")),
            ("{ext}", container.rawValue),
        ]
        // A value's own `%` must not read as a time field.
        for (field, value) in fields {
            pattern = pattern.replacing(field, with: value.replacing("%", with: "%%"))
        }
        let path = Self.formatTime(pattern, time: time)
        guard let named = self.container else { return template.contains("{ext}") ? path : path + "." + container.rawValue }
        guard named != container, let dot = path.lastIndex(of: ".") else { return path }
        return path[..<dot] + "." + container.rawValue
    }

    /// The highest piece number `{n}` gave the pieces of `stream` already under the template's folder: a
    /// recording that starts again goes on from there. 0 when there are none, or the template has no `{n}`.
    public func highestNumber(stream: String) -> Int {
        guard template.contains("{n}") else { return 0 }
        let pattern = PieceNamePattern(self, stream: stream)
        return FolderWalk.files(under: root).reduce(0) { highest, file in
            let path = file.path.hasSuffix(PieceFile.partSuffix) ? String(file.path.dropLast(PieceFile.partSuffix.count))
                : file.path
            return max(highest, pattern.number(in: relative(path)) ?? 0)
        }
    }

    /// A walked path as the template writes it: under a template without a folder, files are walked from `.`.
    func relative(_ path: String) -> String {
        root == "." && !template.hasPrefix("./") && path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    /// A title or name as one path component: no `/`, no control characters (C0, DEL, C1) and no bidirectional
    /// formatting (which makes a listing show another name, as U+202E does), no leading dot, at most 120 bytes;
    /// braces become parentheses, so that a piece's path read as a template names itself.
    static func safe(_ value: String?, empty: String) -> String {
        var text = ""
        for character in (value ?? "").trimmingWhitespace() {
            let unsafe = character == "/" || character.unicodeScalars.contains(where: isUnsafe)
            let next = unsafe ? "_" : character == "{" ? "(" : character == "}" ? ")" : String(character)
            guard text.utf8.count + next.utf8.count <= 120 else { break }
            text += next
        }
        while text.hasPrefix(".") { text.removeFirst() }
        return text.isEmpty ? empty : text
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // ALM, LRM and RLM, the embeddings and overrides, the isolates.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func formatTime(_ pattern: String, time: Double) -> String {
        guard !pattern.isEmpty else { return pattern }
        var seconds = time_t(time.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        // strftime says 0 when its buffer is too small: fields such as %c grow a pattern many times over.
        var capacity = pattern.utf8.count * 4 + 256
        while capacity <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let count = strftime(&buffer, buffer.count, pattern, &fields)
            if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            capacity *= 4
        }
        return pattern
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
