import AudioStreamProtocol
import Foundation

/// Icecast 2.4's statistics as its `/status-json.xsl` gives them, for players, monitors and dashboards that poll
/// it: `{"icestats": {admin, host, location, server_id, server_start, server_start_iso8601, source}}`, where
/// `source` is one object for one mount, an array for several, and absent for none. As Icecast does, only the
/// mounts on the air are listed: widgets tell a live DJ by the mount being there.
///
/// A source's keys are Icecast's, each present when Icecast's would be: `title` once something plays (the
/// whole ICY title, as Icecast shows an MP3 stream's), `audio_info`, `bitrate`, `samplerate` and `channels` once
/// the format is known, for a source client only when it announced its audio (`ice-audio-info`, `ice-bitrate`),
/// as Icecast lists them; `server_url` when the station names one. Icecast's XSL ends each innermost object with `"dummy": null`; so does this.
enum IcecastStatus {
    /// The statistics of the server started at `started`, serving `mounts`, as `serverURL` (`http://HOST`)
    /// reaches it.
    static func json(mounts: [MountFacts], serverURL: String, started: Date) -> JSON {
        let host = URLComponents(string: serverURL)?.host ?? ""
        var stats: [(String, JSON)] = [
            ("admin", .string("")), ("host", .string(host)), ("location", .string("")),
            ("server_id", .string("audiostreamd \(packageVersion)")),
            ("server_start", .string(rfc822(started))), ("server_start_iso8601", .string(iso8601(started))),
        ]
        let sources = mounts.compactMap { facts in
            facts.air.since.map { JSON.object(sourceFields(facts, since: $0, serverURL: serverURL) + [("dummy", .null)]) }
        }
        switch sources.count {
        case 0: stats.append(("dummy", .null))
        case 1: stats.append(("source", sources[0]))
        default: stats.append(("source", .array(sources)))
        }
        return .object([("icestats", .object(stats))])
    }

    /// One mount's fields, in the order of their names, its source on the air `since` then (`stream_start`).
    static func sourceFields(_ facts: MountFacts, since: Date, serverURL: String) -> [(String, JSON)] {
        var fields: [(String, JSON)] = []
        let kbps = (facts.bitRate + 500) / 1000
        // Icecast lists a source client's audio as the client announced it, and nothing when it did not.
        let format = facts.sourceClient != nil && facts.info?.bitRate == nil ? nil : facts.format
        if let format {
            fields += [
                ("audio_info", .string("channels=\(format.channels);samplerate=\(format.sampleRate);bitrate=\(kbps)")),
                ("bitrate", .number(kbps)), ("channels", .number(format.channels)),
            ]
        }
        // Icecast's defaults for a source client that names no genre or description.
        fields += [
            ("genre", .string(facts.info?.genre ?? "various")), ("listener_peak", .number(facts.listenerPeak)),
            ("listeners", .number(facts.listeners)), ("listenurl", .string(serverURL + facts.mount)),
        ]
        // Ours too, for dashboards: the loudness on the air (EBU R128) and the main source's silence.
        if let loudness = facts.loudness {
            fields += zip(["integrated", "momentary", "range", "shortterm"],
                          [loudness.integrated, loudness.momentary, loudness.range, loudness.shortTerm])
                .map { ("loudness_\($0)", JSON.level($1)) }
        }
        if let format { fields.append(("samplerate", .number(format.sampleRate))) }
        // Ours, beside Icecast's: HTTP Live Streaming sessions are not connections.
        if let hls = facts.hlsListeners { fields.append(("hls_listeners", .number(hls))) }
        fields += [
            ("server_description", .string(facts.info?.description ?? "Unspecified description")),
            ("server_name", .string(facts.info?.name ?? "Unspecified name")),
        ]
        if let contentType = facts.info?.contentType { fields.append(("server_type", .string(contentType))) }
        if let url = facts.info?.url { fields.append(("server_url", .string(url))) }
        if let silent = facts.silent { fields.append(("silent", .bool(silent))) }
        fields += [
            ("stream_start", .string(rfc822(since))), ("stream_start_iso8601", .string(iso8601(since))),
        ]
        if let title = facts.title { fields.append(("title", .string(title))) }
        if let peaks = facts.loudness?.truePeaks { fields.append(("true_peak", .array(peaks.map(JSON.level)))) }
        return fields
    }

    /// `Fri, 27 Nov 2026 15:32:50 +0000`, as Icecast writes `stream_start`.
    static func rfc822(_ date: Date) -> String { formatted(date, "EEE, dd MMM yyyy HH:mm:ss Z") }

    /// `2026-11-27T15:32:50+0000`, as Icecast writes `stream_start_iso8601`.
    static func iso8601(_ date: Date) -> String { formatted(date, "yyyy-MM-dd'T'HH:mm:ssZ") }

    private static func formatted(_ date: Date, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
