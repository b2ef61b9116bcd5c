import Foundation
import Yams

/// `source: {playlist: …, loop: …, shuffle: …, pace: …}`: a composition of files.
extension ConfigLoader {
    static let playlistKeys: Set<String> = ["playlist", "loop", "shuffle", "pace"]
    static let playlistItemKeys: Set<String> = ["file", "from", "to"]

    /// A `source:` mapping: `playlist` is a list of items, or the PATH of an M3U/M3U8/PLS file or a folder.
    /// A playlist file or folder is read here once, so that one with no item it can use is refused at once.
    /// `pace` and `loop` may be written in the mapping or beside `source:`, as for a file (`besideSource`, the
    /// stream's fields), with one meaning; not in both.
    func composition(_ node: Node, key: String, besideSource: [String: Node] = [:]) throws -> SourceConfig {
        var fields = try mapping(node, key: key, allowed: Self.playlistKeys)
        let streamKey = key.hasSuffix(".source") ? String(key.dropLast(".source".count)) : key
        for option in Self.fileKeys {
            guard let beside = besideSource[option] else { continue }
            guard fields[option] == nil else {
                throw error(beside, "\(streamKey).\(option)", "is given twice: here and in source:")
            }
            fields[option] = beside
        }
        let keyOf = { (option: String) in "\(besideSource[option] == nil ? key : streamKey).\(option)" }
        let listNode = try required(fields, "playlist", in: node, key: key)
        var config = PlaylistConfig(items: try playlistItems(listNode, key: "\(key).playlist"))
        config.loop = try fields["loop"].map { try bool($0, key: keyOf("loop")) } ?? false
        config.shuffle = try fields["shuffle"].map { try bool($0, key: keyOf("shuffle")) } ?? false
        config.pace = try fields["pace"].map { try pace($0, key: keyOf("pace")) } ?? config.pace
        return .playlist(config)
    }

    private func playlistItems(_ node: Node, key: String) throws -> PlaylistConfig.Items {
        guard let sequence = node.sequence else {
            let path = resolve(try string(node, key: key))
            let items: PlaylistConfig.Items
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw error(node, key, "cannot read \(path)")
            }
            items = isFolder.boolValue ? .folder(path: path) : .playlistFile(path: path)
            do {
                guard try !Playlist.items(of: items).isEmpty else { throw error(node, key, "\(path) lists no audio file") }
            } catch let failure as PlaylistError {
                throw error(node, key, failure.description)
            }
            return items
        }
        guard !sequence.isEmpty else { throw error(node, key, "expected at least one item") }
        return .listed(try sequence.enumerated().map { index, item in try playlistItem(item, key: "\(key)[\(index)]") })
    }

    /// `file: PATH`, with `from` and `to` in seconds; a missing file is no error here, since it is skipped
    /// with a warning when its turn comes (it may be there by then).
    private func playlistItem(_ node: Node, key: String) throws -> PlaylistItem {
        let fields = try mapping(node, key: key, allowed: Self.playlistItemKeys)
        let fileNode = try required(fields, "file", in: node, key: key)
        let path = try string(fileNode, key: "\(key).file")
        guard !path.isEmpty else { throw error(fileNode, "\(key).file", "expected a path") }
        let from = try position(fields["from"], key: "\(key).from") ?? 0
        let to = try position(fields["to"], key: "\(key).to")
        if let to, to <= from {
            throw error(fields["to"]!, "\(key).to", "must be later than from (\(from) s)")
        }
        return PlaylistItem(path: resolve(path), from: from, to: to)
    }

    /// Seconds into a file, 0 or more.
    private func position(_ node: Node?, key: String) throws -> Double? {
        guard let node else { return nil }
        guard node.scalar != nil, let value = node.float, value.isFinite, value >= 0, value <= Self.maximumSeconds
        else { throw error(node, key, "expected seconds into the file, from 0 to \(Int(Self.maximumSeconds))") }
        return value
    }
}
