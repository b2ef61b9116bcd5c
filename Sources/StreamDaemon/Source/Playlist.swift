import Foundation

/// Reads the items of a composition: listed in the configuration, in an M3U/M3U8 or PLS file, or a folder's
/// audio files. Relative paths in a playlist file are taken from the playlist file's folder.
enum Playlist {
    /// The largest playlist file read: far beyond any list of files, so a path naming a device is refused.
    static let maximumFileSize = 4 << 20

    /// Extensions of the files a folder contributes, the containers the parser reads.
    static let audioExtensions: Set<String> = [
        "mp3", "mp2", "mp1", "mpga", "aac", "ac3", "eac3", "flac", "ogg", "oga", "opus", "m4a", "mp4", "wav", "aif",
        "aiff", "aifc", "caf",
    ]

    /// The items of `source`, in the order to play them (before any shuffle).
    /// - Throws: `PlaylistError` when a playlist file or folder cannot be read.
    static func items(of source: PlaylistConfig.Items) throws -> [PlaylistItem] {
        switch source {
        case .listed(let items): return items
        case .folder(let path): return try folderItems(path)
        case .playlistFile(let path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            let entries = path.lowercased().hasSuffix(".pls") ? plsEntries(try text(of: path)) : m3uEntries(try text(of: path))
            return entries.map { PlaylistItem(path: resolve($0, from: folder)) }
        }
    }

    /// The entries of an M3U or M3U8 list: every line that is not empty or a `#` comment or directive.
    static func m3uEntries(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The `FileN=` entries of a PLS list, in the order of their numbers.
    static func plsEntries(_ text: String) -> [String] {
        let entries = text.split(whereSeparator: \.isNewline).compactMap { line -> (Int, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard parts.count == 2, name.lowercased().hasPrefix("file"), let number = Int(name.dropFirst(4)) else {
                return nil
            }
            return (number, parts[1].trimmingCharacters(in: .whitespaces))
        }
        return entries.sorted { $0.0 < $1.0 }.map(\.1).filter { !$0.isEmpty }
    }

    /// An entry as a path: a `file:` URL's path, an absolute path, or one relative to `folder`.
    static func resolve(_ entry: String, from folder: URL) -> String {
        if entry.hasPrefix("file://"), let url = URL(string: entry), url.isFileURL { return url.path }
        guard !entry.hasPrefix("/") else { return entry }
        return folder.appendingPathComponent(entry).standardizedFileURL.path
    }

    private static func folderItems(_ path: String) throws -> [PlaylistItem] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw PlaylistError(description: "cannot list the folder \(path)")
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        return names.filter { audioExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { PlaylistItem(path: folder.appendingPathComponent($0).path) }
    }

    /// The file's text: UTF-8 (an M3U8, or an M3U that is), else Latin-1, the M3U format's own; a leading
    /// byte-order mark is left out. Only a regular file is read: a named pipe would hold the reader (a reload, a
    /// config check) until a writer came, and a device never ends.
    private static func text(of path: String) throws -> String {
        // Without O_NONBLOCK, opening a named pipe waits for a writer; regular files ignore it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw PlaylistError(description: "cannot read \(path)") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw PlaylistError(description: "\(path) is neither a regular file nor a folder")
        }
        guard let data = try? handle.read(upToCount: maximumFileSize + 1) else {
            throw PlaylistError(description: "cannot read \(path)")
        }
        guard data.count <= maximumFileSize else {
            throw PlaylistError(description: "\(path) is larger than \(maximumFileSize >> 20) MiB: not a playlist")
        }
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}

/// A playlist file or folder that cannot be read.
struct PlaylistError: Error, CustomStringConvertible {
    let description: String
}

extension PlaylistConfig: CustomStringConvertible {
    /// What `audiostream status` shows as the stream's source.
    public var description: String {
        switch items {
        case .listed(let items): "playlist of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .playlistFile(let path), .folder(let path): "playlist:\(path)"
        }
    }
}
