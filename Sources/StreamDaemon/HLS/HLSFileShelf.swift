import NIOConcurrencyHelpers

/// The files of a stream's HLS window as every event loop reads them: its `HLSOrigin` puts them on the shelf on
/// the stream's loop, and HTTP connections take them on their own, under a lock held for a lookup. A player asks
/// for a part every half second: going through the stream's loop for bytes that never change would cost each
/// request two tasks.
final class HLSFileShelf: Sendable {
    private let files = NIOLockedValueBox<[String: HLSAnswer]>([:])

    /// The file called `name`, if it is in the window.
    func file(named name: String) -> HLSAnswer? {
        files.withLockedValue { $0[name] }
    }

    func put(_ file: HLSAnswer, named name: String) {
        files.withLockedValue { $0[name] = file }
    }

    func remove(_ names: [String]) {
        files.withLockedValue { files in
            for name in names { files[name] = nil }
        }
    }
}
