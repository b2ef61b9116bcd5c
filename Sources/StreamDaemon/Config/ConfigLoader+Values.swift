import Foundation
import Yams

/// Typed values read from YAML nodes, each refusal naming the key and the line at fault.
extension ConfigLoader {
    func mapping(_ node: Node, key: String, allowed: Set<String>) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw error(node, key, "expected a mapping of keys to values") }
        var fields: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let name = keyNode.string ?? ""
            let path = key.isEmpty ? name : "\(key).\(name)"
            guard allowed.contains(name) else {
                throw error(keyNode, path, "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
            }
            fields[name] = value
        }
        return fields
    }

    static func fields(_ mapping: Node.Mapping) -> [String: Node] {
        Dictionary(mapping.map { ($0.key.string ?? "", $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func required(_ fields: [String: Node], _ name: String, in node: Node, key: String) throws -> Node {
        guard let value = fields[name] else { throw error(node, "\(key).\(name)", "missing") }
        return value
    }

    func string(_ node: Node, key: String) throws -> String {
        guard let scalar = node.scalar else { throw error(node, key, "expected a single value") }
        return scalar.string
    }

    func socketPath(_ node: Node, key: String) throws -> String {
        let text = try string(node, key: key)
        guard !text.isEmpty else { throw error(node, key, "expected a path") }
        let path = resolve(text)
        let limit = SocketFile.maximumPathLength
        guard path.utf8.count <= limit else { throw error(node, key, "the socket path is longer than \(limit) bytes") }
        return path
    }

    func bool(_ node: Node, key: String) throws -> Bool {
        guard node.scalar != nil, let value = node.bool else { throw error(node, key, "expected true or false") }
        return value
    }

    /// Longest accepted duration: a day is already far beyond any sensible queue or wait.
    static let maximumSeconds = 86400.0

    func seconds(_ node: Node?, key: String, allowZero: Bool = false,
                         maximum: Double = maximumSeconds) throws -> Double? {
        guard let node else { return nil }
        let lowest = allowZero ? "0" : "more than 0"
        guard node.scalar != nil, let value = node.float, value <= maximum, value > 0 || (allowZero && value == 0)
        else { throw error(node, key, "expected seconds, \(lowest) and at most \(Int(maximum))") }
        return value
    }

    /// A path as written, or taken from the configuration file's folder when relative.
    func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        return folder.appendingPathComponent(path).standardizedFileURL.path
    }

    /// The line where `key`, first written at `mark`, is written again in the same mapping: Yams locates only the
    /// first one, and the second is the one to remove.
    static func repeatedLine(of key: String, firstAt mark: Mark, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = mark.column - 1
        for (index, line) in lines.enumerated().dropFirst(mark.line) {
            let rest = line.unicodeScalars.dropFirst(indent)
            let isSameKey = String(rest).hasPrefix("\(key):")
                && line.unicodeScalars.prefix(indent).allSatisfy { $0 == " " || $0 == "-" }
            if isSameKey { return index + 1 }
        }
        return mark.line
    }

    func error(_ node: Node, _ key: String, _ problem: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, key: key, problem: problem)
    }

    func syntaxError(_ error: YamlError, in text: String) -> ConfigError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            return ConfigError(file: file, line: mark.line, key: "", problem: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.sorted()[0]
            return ConfigError(file: file, line: Self.repeatedLine(of: key, firstAt: context.mark, in: text), key: key,
                               problem: "duplicate key")
        default:
            return ConfigError(file: file, line: nil, key: "", problem: "YAML: \(error)")
        }
    }
}
