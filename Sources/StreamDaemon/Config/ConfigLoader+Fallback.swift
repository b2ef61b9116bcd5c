import Yams

/// A stream's `fallback:`, the source that plays while its main source is lost.
extension ConfigLoader {
    /// `fallback: SOURCE`, as `source:` is written; or a mapping of what a stream says of its source
    /// (`{source: file:jingles.mp3, loop: true}`); or a source written as a mapping of its own (a playlist). Read by
    /// `source(_:in:key:)`, as the main source is.
    func fallback(_ node: Node, key: String) throws -> SourceConfig {
        let fields: [String: Node]
        if let mapping = node.mapping, Self.fields(mapping)["source"] != nil {
            fields = try self.mapping(node, key: key, allowed: Self.fallbackKeys)
        } else {
            fields = ["source": node]
        }
        let source = try source(fields, in: node, key: key)
        switch source {
        // Read once, by one reader, for the daemon's life: it cannot be started again at each loss.
        case .standardInput: throw error(fields["source"]!, "\(key).source", "stdin cannot be a fallback")
        // A source client connects when it chooses, not when the main source is lost: push is a main source.
        case .push: throw error(fields["source"]!, "\(key).source", "push cannot be a fallback")
        case .file, .http, .playlist: return source
        }
    }

    static let fallbackKeys = Set(["source"] + fileKeys + httpKeys)
}
