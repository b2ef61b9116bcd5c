/// The page at `/`: every mount with what it plays, its listeners and format, and a player. Plain HTML5 with no
/// script and nothing fetched from elsewhere; every text from a stream or its source is escaped.
enum StatusPage {
    static func html(mounts: [MountFacts]) -> String {
        let sections = mounts.map(section).joined()
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>audiostreamd</title>
            <style>
            body { font-family: sans-serif; max-width: 48em; margin: 2em auto; padding: 0 1em; }
            section { border-top: 1px solid #ccc; padding: 0.5em 0; }
            audio { width: 100%; }
            </style>
            </head>
            <body>
            <h1>audiostreamd</h1>
            \(sections.isEmpty ? "<p>No streams are served.</p>\n" : sections)</body>
            </html>

            """
    }

    private static func section(_ facts: MountFacts) -> String {
        let mount = escaped(facts.mount)
        var details = [facts.info?.contentType ?? "no audio yet"]
        if facts.bitRate > 0 { details.append("\((facts.bitRate + 500) / 1000) kb/s") }
        details.append(facts.listeners == 1 ? "1 listener" : "\(facts.listeners) listeners")
        return """
            <section>
            <h2>\(escaped(facts.info?.name ?? facts.mount))</h2>
            <p><a href="\(mount)">\(mount)</a> · \(escaped(details.joined(separator: " · ")))</p>
            <p>Now playing: \(escaped(facts.title ?? "unknown"))</p>
            <audio controls preload="none" src="\(mount)"></audio>
            </section>

            """
    }

    /// `text` as HTML text or an attribute's value.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
