import AudioFileStream
import AudioRecording
import Dispatch
import Logging
import Metrics
import NIOCore
import Synchronization

/// A recording's writing, on a queue of its own so that a slow or full disk never holds up its stream: the
/// recorder is reached only there, and the status it leaves is read from anywhere.
final class RecordingWorker: Sendable {
    private let queue: DispatchQueue
    private let recorder: Mutex<StreamRecorder>
    private let statusBox: Mutex<RecordingStatus>
    /// Bytes of packets handed over and not yet written.
    private let queuedBytes = Atomic<Int>(0)
    private let metrics: RecordingMetrics
    private let logger: Logger

    /// Bytes of packets a recording may hold back for a disk that cannot keep up; past them packets are lost,
    /// and the recording notes a discontinuity.
    static let queueLimit = 16 << 20

    /// Starts recording: first repairs the `.part` pieces a crash left under the template.
    init(settings: RecordingSettings, retention: Retention, logger: Logger) {
        queue = DispatchQueue(label: "audiostream.record.\(settings.stream)")
        metrics = RecordingMetrics(stream: settings.stream)
        statusBox = Mutex(RecordingStatus(template: settings.template.template))
        recorder = Mutex(StreamRecorder(settings: settings, clockOrigin: WallClock.now()))
        self.logger = logger
        run { recorder in
            let (repaired, errors) = PartRepair.repairAll(of: settings.template, stream: settings.stream)
            for path in repaired { logger.notice("repaired \(path) after an unfinished recording") }
            for line in errors { logger.error("\(line)") }
            self.report(from: recorder, keeping: retention)
        }
    }

    /// Starts recording a stream as its `record:` says.
    convenience init(config: RecordConfig, stream: String, logger: Logger) {
        self.init(settings: Self.settings(config, stream: stream), retention: config.keep, logger: logger)
    }

    private static func settings(_ config: RecordConfig, stream: String) -> RecordingSettings {
        RecordingSettings(template: config.template, stream: stream, every: config.every,
                          splitOnTitle: config.splitOnTitle)
    }

    /// Logs, counts and shows what `recorder` finishes and fails, and applies `retention` after each piece.
    private func report(from recorder: StreamRecorder, keeping retention: Retention) {
        recorder.finished = { [unowned self, unowned recorder] piece in
            logger.info("recorded \(piece.path)\(piece.followsLoss ? " (packets before it were not recorded)" : "")",
                        metadata: ["seconds": "\(piece.duration)"])
            metrics.noteFinished(bytes: piece.bytes)
            statusBox.withLock {
                $0.pieces += 1
                $0.bytesWritten += piece.bytes
            }
            let kept = retention.apply(to: recorder.settings.template, stream: recorder.settings.stream,
                                       now: WallClock.now())
            for path in kept.deleted { logger.notice("retention deleted \(path)") }
            for line in kept.errors { logger.warning("\(line)") }
        }
        recorder.noted = { [unowned self] note in
            logger.notice("recording: \(note)")
        }
        recorder.failed = { [unowned self] error in
            logger.error("recording: \(error)")
            metrics.noteError()
            statusBox.withLock { $0.lastError = "\(error)" }
        }
    }

    var status: RecordingStatus { statusBox.withLock { $0 } }

    /// Hands `inputs` (a chunk's) to the recorder in one go, unless the disk is too far behind: then their
    /// packets are dropped, and the recorder told that what follows does not follow them.
    func take(_ inputs: [RecordingInput]) {
        var inputs = inputs
        var size = inputs.reduce(0) { $0 + $1.byteCount }
        var lost = false
        if size > 0, queuedBytes.add(size, ordering: .relaxed).newValue > Self.queueLimit {
            queuedBytes.subtract(size, ordering: .relaxed)
            (size, lost) = (0, true)
            inputs.removeAll { $0.byteCount > 0 }
            metrics.noteError()
            statusBox.withLock { $0.lastError = "the disk is too slow: packets were not recorded" }
        }
        run { [inputs, size, lost] recorder in
            defer { if size > 0 { self.queuedBytes.subtract(size, ordering: .relaxed) } }
            if lost { recorder.noteLoss() }
            for input in inputs { Self.hand(input, to: recorder) }
            self.noteCurrent(recorder)
        }
    }

    private static func hand(_ input: RecordingInput, to recorder: StreamRecorder) {
        switch input {
        case .event(let event): event.withEvent(recorder.handle)
        case .tags(let tags, let offset): recorder.noteTags(tags, at: offset)
        case .clock(let time): recorder.setClock(nextFrameAt: time)
        case .station(let name): recorder.setStation(name)
        case .newSource: recorder.beginSource()
        }
    }

    /// Finishes the piece under way and records on as `config` says.
    func change(to config: RecordConfig, stream: String) {
        let (settings, retention) = (Self.settings(config, stream: stream), config.keep)
        run { recorder in
            recorder.change(to: settings)
            self.report(from: recorder, keeping: retention)
        }
        statusBox.withLock { $0.template = settings.template.template }
    }

    /// Finishes the piece under way, as at the stream's end; the future, on `eventLoop`, says when it is on disk.
    func finish(on eventLoop: EventLoop) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        run { recorder in
            recorder.finish()
            self.noteCurrent(recorder)
            self.metrics.destroy()
            promise.succeed()
        }
        return promise.futureResult
    }

    private func run(_ body: @escaping @Sendable (StreamRecorder) -> Void) {
        queue.async { self.recorder.withLock { body($0) } }
    }

    private func noteCurrent(_ recorder: StreamRecorder) {
        let current = recorder.current
        statusBox.withLock {
            $0.currentPiece = current?.path
            $0.currentBytes = current?.bytes ?? 0
        }
    }
}
