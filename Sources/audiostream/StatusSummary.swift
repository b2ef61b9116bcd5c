import Foundation

/// The daemon's status answer as a few lines for people: a line per stream, an indented line per subscriber.
struct StatusSummary {
    let lines: [String]

    init(_ status: [String: Any]) {
        var lines = ["up \(Self.duration(status["uptimeSeconds"]))"]
        for stream in status["streams"] as? [[String: Any]] ?? [] {
            let subscribers = stream["subscribers"] as? [[String: Any]] ?? []
            let listeners = stream["listeners"] as? [[String: Any]] ?? []
            var format = "format unknown"
            if let known = stream["format"] as? [String: Any] {
                format = "\(known["formatID"] ?? "?") \(known["sampleRate"] ?? "?") Hz \(known["channels"] ?? "?") ch"
            }
            var source = "\(stream["source"] ?? "?")"
            if let connected = stream["connected"] as? Bool {
                source += connected ? " (connected" : Self.away(stream)
                source += ", \(Self.number(stream["reconnects"])) reconnect(s))"
            }
            let hls = (stream["hlsListeners"] as? Int).map { ["\($0) HLS listener(s)"] } ?? []
            let silent = stream["silent"] as? Bool == true ? ["main source silent"] : []
            lines.append(([
                "\(stream["name"] ?? "?"): \(stream["state"] ?? "?")", source, format,
                "\(Self.number(stream["bitRate"]) / 1000) kb/s", "up \(Self.duration(stream["uptimeSeconds"]))",
                "in \(Self.number(stream["bytesIn"])) B", "out \(Self.number(stream["bytesOut"])) B",
                "\(subscribers.count) subscriber(s)", "\(listeners.count) HTTP listener(s)",
            ] + hls + Self.loudness(stream) + silent).joined(separator: ", "))
            for subscriber in subscribers + listeners {
                let kinds = subscriber["transport"] as? String == "http"
                    ? "http" : (subscriber["kinds"] as? [String] ?? []).joined(separator: "+")
                lines.append("  #\(subscriber["id"] ?? "?") \(kinds): lag \(subscriber["lagSeconds"] ?? 0) s, "
                    + "dropped \(Self.number(subscriber["droppedPackets"])), out \(Self.number(subscriber["bytesOut"])) B, "
                    + "connected \(Self.duration(subscriber["connectedSeconds"]))")
            }
        }
        self.lines = lines
    }

    /// How a network source that is not connected came to be so: why it was lost, or that none came yet.
    private static func away(_ stream: [String: Any]) -> String {
        if let error = stream["lastSourceError"] as? String { return " (disconnected: \(error)" }
        return stream["source"] as? String == "push" ? " (no source client yet" : " (not connected yet"
    }

    /// The loudness on the air, for a stream that measures it: short-term, and integrated since the source took
    /// the air.
    private static func loudness(_ stream: [String: Any]) -> [String] {
        guard let loudness = stream["loudness"] as? [String: Any] else { return [] }
        func level(_ key: String) -> String {
            (loudness[key] as? Double).map { String(format: "%.1f", $0) } ?? "-inf"
        }
        return ["\(level("shortTerm")) LUFS (integrated \(level("integrated")))"]
    }

    private static func number(_ value: Any?) -> Int {
        (value as? NSNumber)?.intValue ?? 0
    }

    private static func duration(_ value: Any?) -> String {
        let seconds = number(value)
        return seconds >= 3600 ? "\(seconds / 3600)h\(seconds % 3600 / 60)m" : seconds >= 60 ? "\(seconds / 60)m\(seconds % 60)s" : "\(seconds)s"
    }
}
