import AudioFileWriting

/// The names a recording's template can give its pieces for one stream, read field by field: a time field by
/// its digits, `{n}` by its number, `{stream}` by the stream's own name, `{title}` and `{artist}` by any text
/// within one path component, the `-2`, `-3` … a taken name gets, and a container's extension. Retention and repair touch nothing else,
/// so that another stream's pieces beside these (`jazz-archive-…` beside `jazz-…`) are never theirs.
struct PieceNamePattern {
    private let regex: Regex<AnyRegexOutput>

    init(_ template: PieceNameTemplate, stream: String) {
        var body = template.template[...]
        // A piece's own container's extension: the template's, or another where that cannot hold its codec.
        let suffix = #"\."# + Self.fileExtension
        if template.container != nil || body.hasSuffix(".{ext}"), let dot = body.lastIndex(of: ".") {
            body = body[..<dot]
        }
        // A hand-made expression of escaped literals and fixed shapes always compiles.
        regex = try! Regex(Self.expression(body, stream: stream) + #"(-[0-9]+)?"# + suffix)
    }

    /// Whether `path`, as the template writes it, is one of the names.
    func matches(_ path: String) -> Bool {
        (try? regex.wholeMatch(in: path)) != nil
    }

    /// The piece number `{n}` gave `path`, when it is one of the names and the template numbers its pieces.
    func number(in path: String) -> Int? {
        guard let match = try? regex.wholeMatch(in: path) else { return nil }
        return match.output["n"]?.substring.flatMap { Int($0) }
    }

    private static func expression(_ template: Substring, stream: String) -> String {
        var expression = ""
        var rest = template
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "%":
                // Flags and widths (`%-d`, `%_H`, `%Ey`) change a field's shape: any text then.
                let flags = rest.prefix { "_-0^#EO123456789".contains($0) }
                rest = rest.dropFirst(flags.count)
                guard let conversion = rest.first else { return expression + "%" }
                rest = rest.dropFirst()
                expression += flags.isEmpty ? timeField(conversion) : anyText
            case "{":
                let field = ["{stream}", "{n}", "{title}", "{artist}", "{ext}"].first { ("{" + rest).hasPrefix($0) }
                guard let field else {
                    expression += literal("{")
                    continue
                }
                rest = rest.dropFirst(field.count - 1)
                switch field {
                case "{stream}": expression += literal(PieceNameTemplate.safe(stream, empty: "stream")[...])
                // The first `{n}` is the number; a second one repeats it.
                case "{n}": expression += expression.contains("(?<n>") ? #"[0-9]{3,}"# : #"(?<n>[0-9]{3,})"#
                case "{ext}": expression += fileExtension
                default: expression += anyText
                }
            default:
                expression += literal(String(character)[...])
            }
        }
        return expression
    }

    /// The extension of any container a piece is written in.
    private static let fileExtension = "(" + Container.allCases.map(\.rawValue).joined(separator: "|") + ")"

    /// Text within one path component.
    private static let anyText = "[^/]+"

    /// What strftime writes for `conversion`, by glibc's formats.
    private static func timeField(_ conversion: Character) -> String {
        switch conversion {
        case "Y", "G": #"[0-9]{4}"#
        case "C", "y", "m", "d", "H", "I", "M", "S", "U", "W", "V", "g": #"[0-9]{2}"#
        case "e", "k", "l": #"[ 0-9][0-9]"#
        case "j": #"[0-9]{3}"#
        case "u", "w": #"[0-9]"#
        case "s": #"[0-9]+"#
        case "F": #"[0-9]{4}-[0-9]{2}-[0-9]{2}"#
        case "T": #"[0-9]{2}:[0-9]{2}:[0-9]{2}"#
        case "R": #"[0-9]{2}:[0-9]{2}"#
        case "D": #"[0-9]{2}/[0-9]{2}/[0-9]{2}"#
        case "z": #"[+-][0-9]{4}"#
        case "%": "%"
        case "n": #"\n"#
        case "t": #"\t"#
        // Names of days and months, the locale's formats, the zone's name.
        default: anyText
        }
    }

    /// `text` matched as it is: ASCII punctuation escaped.
    private static func literal(_ text: Substring) -> String {
        var escaped = ""
        for character in text {
            if character.isASCII, character.isPunctuation || character.isSymbol || character == " " {
                escaped += "\\"
            }
            escaped.append(character)
        }
        return escaped
    }
}
