import AudioFileWriting
import AudioHLS
import Yams

/// A stream's `hls:`.
extension ConfigLoader {
    static let hlsKeys: Set<String> = ["segment", "part", "window", "container", "path", "group"]

    /// `{segment: SECONDS, part: SECONDS, window: SECONDS, container: packed|fmp4, path: FOLDER, group: NAME}`.
    func hls(_ node: Node, key: String) throws -> HLSConfig {
        let fields = try mapping(node, key: key, allowed: Self.hlsKeys)
        var config = HLSConfig()
        for (name, keyPath) in [("segment", \HLSSettings.segment), ("part", \.part), ("window", \.window)] {
            guard let value = fields[name] else { continue }
            guard value.scalar != nil, let seconds = value.float else {
                throw error(value, "\(key).\(name)", "expected seconds")
            }
            config.settings[keyPath: keyPath] = seconds
        }
        if let problem = config.settings.problems.first { throw error(node, key, problem) }
        if let container = fields["container"] {
            let name = try string(container, key: "\(key).container")
            guard let kind = HLSContainer(rawValue: name) else {
                throw error(container, "\(key).container", "expected packed or fmp4 (got '\(name)')")
            }
            config.settings.container = kind
        }
        if let path = fields["path"] { config.path = resolve(try string(path, key: "\(key).path")) }
        if let group = fields["group"] {
            let name = try string(group, key: "\(key).group")
            guard Self.isPathSegment(name) else {
                throw error(group, "\(key).group", "use letters, digits, '-', '_' or '.' (got '\(name)')")
            }
            config.group = name
        }
        return config
    }

    /// A file source whose codec no HLS segment carries (or not the container asked for) is refused now, rather
    /// than when it plays.
    func checkSegmentable(_ source: SourceConfig, by hls: HLSConfig, node: Node, key: String) throws {
        guard case .file(let path, _, _) = source, let format = Self.dataFormat(ofFile: path) else { return }
        do {
            _ = try HLSContainer.chosen(hls.settings.container, for: format)
        } catch let failure as WriteError {
            throw error(node, key, "\(path): \(failure)")
        }
    }

    /// Letters, digits, `-`, `_` and `.`: a name that is one path segment of a URL as it is.
    static func isPathSegment(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}
