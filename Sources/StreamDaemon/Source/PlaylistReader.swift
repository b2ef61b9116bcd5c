import Foundation

/// Reads the files of a composition one after another for a `SourceReader`: before each file's bytes, a
/// `segment` output names the item, so the pipeline can cut it to its range. A file that is missing, unreadable
/// or holds no audio is skipped with a warning (each item's at most once a minute); the composition fails only when every item of the list failed in
/// a row. A playlist file or folder is read again before each item, so an edit (with or without a reload) takes
/// effect at the next join, never cutting the item that is playing.
struct PlaylistReader {
    let config: PlaylistConfig
    let reader: SourceReader

    /// Plays the list (again and again when it loops); answers the failure that ended it, if any.
    func read(deliver: SourceReader.Deliver) -> String? {
        let clock = PaceClock(speed: config.pace)
        var pass = Pass(shuffle: config.shuffle)
        var failuresInARow = 0
        var items: [PlaylistItem] = []
        var warnings = SkipWarnings()
        while !reader.isStopped {
            // Not read again after an item skipped: a long list of missing files was read once for each entry.
            if items.isEmpty || failuresInARow == 0 {
                do {
                    items = try Playlist.items(of: config.items)
                } catch {
                    return "\(error)"
                }
            }
            // A list emptied (its folder, its file) would have a looping pass spin without end.
            guard !items.isEmpty else { return "the playlist lists no item" }
            guard let item = pass.next(of: items) else {
                guard config.loop else { return nil }
                pass = Pass(shuffle: config.shuffle)
                continue
            }
            if let problem = play(item, clock: clock, deliver: deliver) {
                guard !reader.isStopped else { return nil }
                let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
                if let warning = warnings.warning(forItemAt: item.path, problem, now: now) {
                    guard deliver(.warning(warning)) != nil else { return nil }
                }
                failuresInARow += 1
                if failuresInARow >= items.count { return "no item of the playlist can be played (last: \(problem))" }
            } else {
                failuresInARow = 0
            }
        }
        return nil
    }

    /// Hands over the item's file as a segment; answers why it could not be played, if it could not.
    private func play(_ item: PlaylistItem, clock: PaceClock?, deliver: SourceReader.Deliver) -> String? {
        // Without O_NONBLOCK a named pipe's open would wait for a writer for ever; regular files ignore it.
        let descriptor = open(item.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return "cannot open \(item.path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        // A folder, a pipe or a device (`/dev/zero`, `/dev/urandom`) is never a file to play.
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return "\(item.path) is not a regular file"
        }
        // A file the parser cannot read would end the stream once fed to it: its first megabyte is tried first.
        guard ConfigLoader.dataFormat(ofFile: item.path) != nil else {
            return "\(item.path) holds no audio the parser reads"
        }
        guard let before = deliver(.segment(item)) else { return nil }
        let result = reader.read(descriptor: descriptor, pace: clock, deliver: deliver, restartsFile: false)
        if let failure = result.failure { return "\(item.path): \(failure)" }
        return result.audioSeconds > before || reader.isStopped ? nil : "no audio in \(item.path)"
    }
}

/// One pass through the list: the next item's place, in the list's order or shuffled. A list that changed since
/// the pass began goes on at the same place in the new list (shuffled afresh when shuffling).
private struct Pass {
    let shuffle: Bool
    private var played = 0
    private var list: [PlaylistItem] = []
    private var order: [Int] = []

    init(shuffle: Bool) {
        self.shuffle = shuffle
    }

    mutating func next(of items: [PlaylistItem]) -> PlaylistItem? {
        if items != list {
            list = items
            order = Array(items.indices)
            if shuffle { order.shuffle() }
        }
        guard played < order.count else { return nil }
        defer { played += 1 }
        return list[order[played]]
    }
}
