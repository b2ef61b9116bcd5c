import AudioDecoding
import AudioFileStream
import AudioLoudness
import Yams

/// A stream's `monitor:` and `silence:`.
extension ConfigLoader {
    static let monitorKeys: Set<String> = ["loudness"]
    static let silenceKeys: Set<String> = ["below", "after", "back"]

    /// `monitor: {loudness: true}` and `silence: {below: DBFS, after: SECONDS, back: SECONDS}` of a stream whose
    /// sources are `sources`.
    func monitor(_ fields: [String: Node], key: String, sources: [SourceConfig]) throws -> MonitorConfig {
        var config = MonitorConfig()
        if let node = fields["monitor"] {
            let monitor = try mapping(node, key: "\(key).monitor", allowed: Self.monitorKeys)
            config.loudness = try monitor["loudness"].map { try bool($0, key: "\(key).monitor.loudness") } ?? false
            for source in sources { try checkDecodable(source, node: node, key: "\(key).monitor") }
        }
        config.silence = try section("silence", of: fields, key: key, sources: sources, read: silence(_:key:)) {
            source, _, node, key in try checkDecodable(source, node: node, key: key)
        }
        return config
    }

    /// `{below: DBFS, after: SECONDS, back: SECONDS}`, each optional (-50, 10, 2).
    func silence(_ node: Node, key: String) throws -> SilenceRule {
        let fields = try mapping(node, key: key, allowed: Self.silenceKeys)
        var rule = SilenceRule()
        if let below = fields["below"] {
            guard below.scalar != nil, let level = below.float, level < 0, level >= -100 else {
                throw error(below, "\(key).below", "expected a level in dBFS, below 0 and not below -100")
            }
            rule.below = level
        }
        rule.after = try seconds(fields["after"], key: "\(key).after") ?? rule.after
        rule.back = try seconds(fields["back"], key: "\(key).back") ?? rule.back
        return rule
    }

    /// A file source in a codec no decoder reads cannot be measured: refused now, rather than when it plays.
    private func checkDecodable(_ source: SourceConfig, node: Node, key: String) throws {
        guard case .file(let path, _, _) = source, let format = Self.dataFormat(ofFile: path),
              !StreamDecoder.decodes(format.formatID) else { return }
        throw error(node, key, "\(path): \(AudioFormatID.name(of: format.formatID)) packets cannot be decoded, so "
            + "their sound cannot be measured")
    }
}
