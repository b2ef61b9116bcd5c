import Synchronization

/// The pieces this process is writing, by path: a repair passes them over, whatever recording asks.
enum OpenPieces {
    private static let paths = Mutex<Set<String>>([])

    static func insert(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    static func remove(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    static func contains(_ path: String) -> Bool {
        paths.withLock { $0.contains(path) }
    }
}
