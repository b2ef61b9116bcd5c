import Foundation

extension Encodable {
    /// Writes the value to `path` as JSON, keys sorted, for the report scripts and for people to read.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
