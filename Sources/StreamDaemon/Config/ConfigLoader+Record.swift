import AudioFileStream
import AudioRecording
import Foundation
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

    /// A file whose codec the template's extension cannot hold is refused now, rather than when it plays (a
    /// network source's codec is known only once it answers).
    func checkRecordable(_ source: SourceConfig, by record: RecordConfig, node: Node, key: String) throws {
        guard case .file(let path, _, _) = source, let container = record.template.container,
              let format = Self.dataFormat(ofFile: path), !container.canHold(format) else { return }
        let pathNode = node.mapping.flatMap { Self.fields($0)["path"] } ?? node
        throw error(pathNode, "\(key).path",
                    ".\(container.rawValue) cannot hold the \(format.codecName) audio of \(path)")
    }

    /// The DataFormat the first megabyte of a file announces, if it does.
    static func dataFormat(ofFile path: String) -> AudioStreamBasicDescription? {
        // A pipe or a device would wait for a writer or never end: only a regular file is looked into.
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // The throwing read: `readData(ofLength:)` traps on a read error.
        guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
        let bytes = [UInt8](data)
        var format: AudioStreamBasicDescription?
        let stream = try? AudioFileStream { event in
            if case .property(.dataFormat, .format(let value)) = event, format == nil { format = value }
        }
        try? stream?.parse(bytes)
        return format
    }
}
