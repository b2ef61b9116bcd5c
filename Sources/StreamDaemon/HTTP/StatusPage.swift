import Foundation

/// The page at `/`, headed by the server's name: every mount with whether it is on the air (its main source, its
/// fallback, or nothing), what it plays, its listeners and format, and a player while it is on the air. Plain HTML5
/// with no script and nothing fetched from elsewhere, which the browser loads again every `refreshSeconds`; every
/// text from a stream or its source is escaped.
enum StatusPage {
    static let refreshSeconds = 15

    static func html(name: String, mounts: [MountFacts]) -> String {
        let sections = mounts.map(section).joined()
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="\(refreshSeconds)">
            <title>\(name.markupEscaped)</title>
            <style>
            body { font-family: sans-serif; max-width: 48em; margin: 2em auto; padding: 0 1em; }
            section { border-top: 1px solid #ccc; padding: 0.5em 0; }
            audio { width: 100%; }
            </style>
            </head>
            <body>
            <h1>\(name.markupEscaped)</h1>
            \(sections.isEmpty ? "<p>No streams are served.</p>\n" : sections)</body>
            </html>

            """
    }

    private static func section(_ facts: MountFacts) -> String {
        let mount = facts.mount.markupEscaped
        var details = [state(facts.air), facts.info?.contentType ?? "no audio yet"]
        if facts.bitRate > 0 { details.append("\((facts.bitRate + 500) / 1000) kb/s") }
        details.append(facts.listeners == 1 ? "1 listener" : "\(facts.listeners) listeners")
        if let hls = facts.hlsListeners { details.append(hls == 1 ? "1 HLS listener" : "\(hls) HLS listeners") }
        if let loudness = facts.loudness {
            details.append(loudness.shortTerm.isFinite ? String(format: "%.1f LUFS", loudness.shortTerm) : "no sound")
        }
        if facts.silent == true { details.append("main source silent") }
        // Off the air, a player would only get a 503.
        let player = facts.air == .off ? "" : "<audio controls preload=\"none\" src=\"\(mount)\"></audio>\n"
        let playing = facts.air == .off ? "" : "<p>Now playing: \((facts.title ?? "unknown").markupEscaped)</p>\n"
        return """
            <section>
            <h2>\((facts.info?.name ?? facts.mount).markupEscaped)</h2>
            <p><a href="\(mount)">\(mount)</a> · \(details.joined(separator: " · ").markupEscaped)</p>
            \(playing)\(player)</section>

            """
    }

    /// Whether the mount is on the air, in a word or two.
    private static func state(_ air: MountAir) -> String {
        switch air {
        case .main: "live"
        case .fallback: "on its fallback"
        case .off: "off the air"
        }
    }
}
