/// What an HLS client asks of a stream, read from the path under `/hls/NAME/` and the query (RFC 8216bis
/// §6.2.5).
enum HLSRequest: Equatable {
    /// `live.m3u8`: the media playlist, held until segment `msn` (and its part `part`) is listed when asked,
    /// as a delta update when `skip`.
    case playlist(msn: Int?, part: Int?, skip: Bool)
    /// A segment, part or initialization section by its name.
    case file(String)

    /// The media playlist's name.
    static let playlistName = "live.m3u8"

    /// The request for `name` (a file under the stream's folder) with `query`.
    /// - Throws: `HLSRefusal.badRequest` for a blocking request the spec forbids: `_HLS_part` without
    ///   `_HLS_msn`, or a number that is not one.
    init(name: String, query: FormQuery) throws(HLSRefusal) {
        guard name == Self.playlistName else {
            self = .file(name)
            return
        }
        let texts = (msn: query.text("_HLS_msn"), part: query.text("_HLS_part"))
        let msn = texts.msn.flatMap { Int($0) }
        let part = texts.part.flatMap { Int($0) }
        guard (texts.msn == nil || msn ?? -1 >= 0), (texts.part == nil || part ?? -1 >= 0) else {
            throw .badRequest("_HLS_msn and _HLS_part must be numbers of 0 or more")
        }
        guard part == nil || msn != nil else { throw .badRequest("_HLS_part needs _HLS_msn (RFC 8216bis §6.2.5.2)") }
        // `YES` and `v2` (which also skips date ranges, none of which are skipped here) ask for a delta update.
        let skip = query.text("_HLS_skip")
        self = .playlist(msn: msn, part: part, skip: skip == "YES" || skip == "v2")
    }
}

/// Why an HLS request gets no file or playlist.
enum HLSRefusal: Error, Equatable {
    /// 400: a request the spec forbids, or a segment too far ahead.
    case badRequest(String)
    /// 404: a file that is not, or no longer, in the window.
    case notFound(String)
    /// 503: a blocked request that outlived three target durations, or a stream without HLS yet.
    case unavailable(String)

    /// The HTTP answer.
    func refusal(http11: Bool) -> HTTPRefusal {
        switch self {
        case .badRequest(let reason): HTTPRefusal(.badRequest, reason, http11: http11)
        case .notFound(let reason): HTTPRefusal(.notFound, reason, http11: http11)
        case .unavailable(let reason): HTTPRefusal(.serviceUnavailable, reason, http11: http11)
        }
    }
}
