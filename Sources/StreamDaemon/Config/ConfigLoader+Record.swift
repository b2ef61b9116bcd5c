import AudioRecording
import Yams

/// A stream's `record:`.
extension ConfigLoader {
    static let recordKeys: Set<String> = ["path", "every", "splitOnTitle", "keep"]
    static let keepKeys: Set<String> = ["days", "bytes"]

    /// `{path: TEMPLATE, every: SECONDS, splitOnTitle: BOOL, keep: {days: N, bytes: N}}`.
    func record(_ node: Node, key: String) throws -> RecordConfig {
        let fields = try mapping(node, key: key, allowed: Self.recordKeys)
        let pathNode = try required(fields, "path", in: node, key: key)
        let template: PieceNameTemplate
        do {
            template = try PieceNameTemplate(resolve(try string(pathNode, key: "\(key).path")))
        } catch let failure as RecordingError {
            throw error(pathNode, "\(key).path", "\(failure)")
        }
        var record = RecordConfig(template: template)
        if let every = fields["every"] {
            guard every.scalar != nil, let value = every.int, value >= 1 else {
                throw error(every, "\(key).every", "expected whole seconds, 1 or more")
            }
            record.every = value
        }
        if let split = fields["splitOnTitle"] { record.splitOnTitle = try bool(split, key: "\(key).splitOnTitle") }
        if let keep = fields["keep"] { record.keep = try retention(keep, key: "\(key).keep") }
        return record
    }

    private func retention(_ node: Node, key: String) throws -> Retention {
        let fields = try mapping(node, key: key, allowed: Self.keepKeys)
        var keep = Retention()
        if let days = fields["days"] {
            guard days.scalar != nil, let value = days.float, value > 0 else {
                throw error(days, "\(key).days", "expected days, more than 0")
            }
            keep.days = value
        }
        if let bytes = fields["bytes"] {
            guard bytes.scalar != nil, let value = bytes.int, value > 0 else {
                throw error(bytes, "\(key).bytes", "expected bytes, more than 0")
            }
            keep.bytes = Int64(value)
        }
        guard keep.days != nil || keep.bytes != nil else { throw error(node, key, "give days, bytes or both") }
        return keep
    }
}
