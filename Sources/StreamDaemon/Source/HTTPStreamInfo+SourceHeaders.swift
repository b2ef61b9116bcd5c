import AudioStreamProtocol
import NIOHTTP1

extension HTTPStreamInfo {
    /// Reads an Icecast source client's request head: its `ice-*` fields (or `icy-*`, as clients of SHOUTcast's
    /// habits write them), a bit rate from `ice-bitrate` or `ice-audio-info`, and its content type. A source sends
    /// no ICY metadata blocks in its body, whatever it says.
    init(sourceHeaders headers: HTTPHeaders) {
        self.init { name in
            switch name {
            case "icy-metaint": nil
            case "icy-br": headers.first(name: "ice-bitrate") ?? Self.audioInfoBitRate(headers)
                ?? headers.first(name: "icy-br")
            default: headers.first(name: name.replacing("icy-", with: "ice-")) ?? headers.first(name: name)
            }
        }
    }

    /// The bit rate of `ice-audio-info: bitrate=128;samplerate=44100;channels=2` (libshout writes its keys with
    /// or without an `ice-` prefix).
    private static func audioInfoBitRate(_ headers: HTTPHeaders) -> String? {
        headers.first(name: "ice-audio-info")?.split(separator: ";").lazy.compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == "bitrate" || parts[0] == "ice-bitrate" else { return nil }
            return parts[1]
        }.first
    }
}
