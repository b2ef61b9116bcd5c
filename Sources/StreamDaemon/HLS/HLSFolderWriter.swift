import AudioHLS
import Dispatch
import Logging
import Synchronization

/// A stream's HLS files written to its `hls.path` on a queue of its own, so that a slow or full disk never holds up
/// the stream. A failure is logged once, and again only after the folder took files again.
final class HLSFolderWriter: Sendable {
    private let folder: HLSFolder
    private let queue: DispatchQueue
    private let logger: Logger
    private let isFailing = Atomic<Bool>(false)

    init(path: String, stream: String, logger: Logger) {
        folder = HLSFolder(path: path)
        queue = DispatchQueue(label: "audiostream.hls.\(stream)")
        self.logger = logger
    }

    /// Stores or deletes what `change` says, then writes `playlist` when given.
    func take(_ change: HLSChange, playlist: String?) {
        queue.async { [self] in
            do {
                try folder.take(change)
                if let playlist { try folder.write(Array(playlist.utf8), named: HLSRequest.playlistName) }
                if isFailing.exchange(false, ordering: .relaxed) { logger.notice("HLS files are written again") }
            } catch {
                if !isFailing.exchange(true, ordering: .relaxed) { logger.error("HLS files not written: \(error)") }
            }
        }
    }
}
