/// A multivariant playlist (RFC 8216bis §4.4.6) over the streams of an HLS group: one station at several bit
/// rates, each an audio rendition and the variant that plays it.
enum HLSGroupPlaylist {
    /// What the playlist says of one stream.
    struct Variant: Sendable {
        let name: String
        /// Bits per second of its most demanding segment.
        let bandwidth: Int
        let codecs: String
    }

    /// The playlist of `variants`, the richest first; a stream appears once it has a segment.
    static func text(variants: [Variant]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let sorted = variants.sorted { $0.bandwidth > $1.bandwidth }
        for (index, variant) in sorted.enumerated() {
            let uri = "../\(variant.name)/\(HLSRequest.playlistName)"
            lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(variant.name)\",NAME=\"\(variant.name)\","
                + "DEFAULT=\(index == 0 ? "YES" : "NO"),AUTOSELECT=YES,URI=\"\(uri)\"")
        }
        for variant in sorted {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),CODECS=\"\(variant.codecs)\","
                + "AUDIO=\"\(variant.name)\"")
            lines.append("../\(variant.name)/\(HLSRequest.playlistName)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
