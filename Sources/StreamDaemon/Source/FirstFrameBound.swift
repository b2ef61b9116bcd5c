import NIOCore

/// What a response must bring to count as a station: a content type that may be audio, and a whole, confirmed
/// frame within its first `bytes` of audio (after a leading ID3v2 tag) and its first `time` after the headers. A maintenance page or a
/// server sending noise would otherwise look connected for ever; failing instead, it is retried with the backoff.
enum FirstFrameBound {
    /// Far more than the few frames any format needs to confirm one: 2 s at 256 kb/s.
    static let bytes = 64 * 1024
    static let time = TimeAmount.seconds(10)

    static let tooManyBytes = "no audio frames in the first \(bytes / 1024) KiB"
    static let tooLong = "no audio frames in the first \(time.nanoseconds / 1_000_000_000) s"

    /// The failure for a response whose content type is text (`text/html`, `text/plain`: a web page, an error
    /// message), which no station sends; nil for any other type, or none.
    static func failure(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return mediaType.hasPrefix("text/") ? "not audio: \(mediaType)" : nil
    }
}
