import Foundation
import NIOConcurrencyHelpers

/// Reads a stream's bytes on a thread of its own, so a blocking read (stdin, a slow disk) never holds up an
/// event loop, and hands each chunk over synchronously: the reader waits until the chunk has been parsed, which
/// keeps memory bounded and lets a file be paced by the audio it turned out to hold.
final class SourceReader: Sendable {
    /// What the reader hands over.
    enum Output {
        /// Bytes that follow the previous ones, or with `restartsFile` the file's first bytes again (a loop).
        case bytes([UInt8], restartsFile: Bool)
        /// The bytes that follow are a new file of a composition, of which `item` is to be played.
        case segment(PlaylistItem)
        /// A problem worth telling subscribers that does not stop the source (an item skipped).
        case warning(String)
        /// The source is exhausted, with the reason if it failed.
        case end(failure: String?)
    }

    /// Takes one output; for bytes, answers the seconds of audio parsed so far, or nil to stop reading.
    typealias Deliver = @Sendable (Output) -> Double?

    /// What to read.
    private let input: Input
    private let stopped = NIOLockedValueBox(false)

    /// A reader for standard input or a file; nil for sources it does not read (network ones).
    init?(config: SourceConfig) {
        switch config {
        case .standardInput: input = .standardInput
        case .file(let path, let pace, let loop): input = .file(path: path, pace: pace, loop: loop)
        case .playlist(let playlist): input = .playlist(playlist)
        case .http, .push: return nil
        }
    }

    /// Starts the reading thread.
    func start(deliver: @escaping Deliver) {
        let thread = Thread { [self] in
            let failure = read(deliver: deliver)
            if !isStopped { _ = deliver(.end(failure: failure)) }
        }
        thread.name = "source"
        thread.start()
    }

    /// Stops handing over chunks. A read already blocked (stdin) returns on its own; its bytes are dropped.
    func stop() {
        stopped.withLockedValue { $0 = true }
    }

    var isStopped: Bool { stopped.withLockedValue { $0 } }

    /// Reads until the end, a failure or `stop()`; returns the failure, if any.
    private func read(deliver: Deliver) -> String? {
        let (path, pace, loop): (String, Pace, Bool)
        switch input {
        case .standardInput:
            return read(descriptor: 0, chunkSize: 65536, pace: nil, deliver: deliver, restartsFile: false).failure
        case .playlist(let playlist): return PlaylistReader(config: playlist, reader: self).read(deliver: deliver)
        case .file(let filePath, let filePace, let fileLoop): (path, pace, loop) = (filePath, filePace, fileLoop)
        }
        let clock = PaceClock(speed: pace)
        var audioSeconds = 0.0
        var restartsFile = false
        repeat {
            let descriptor = open(path, restartsFile ? 5 : 0)
            guard descriptor >= 0 else { return "cannot open \(path): \(String(cString: strerror(errno)))" }
            defer { close(descriptor) }
            let result = read(descriptor: descriptor, pace: clock, deliver: deliver, restartsFile: restartsFile)
            if let failure = result.failure { return failure }
            // Looping a file that holds no audio would spin for ever.
            guard result.audioSeconds > audioSeconds else { return isStopped ? nil : "no audio in \(path)" }
            audioSeconds = result.audioSeconds
            restartsFile = true
        } while loop && !isStopped
        return nil
    }

    /// Opens the file, trying again once a second up to `retries` times: a looped file that opened before may
    /// fail for a moment (descriptors exhausted, the file being replaced) without the stream ending for good.
    private func open(_ path: String, _ retries: Int) -> Int32 {
        var descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        for _ in 0..<retries where descriptor < 0 && !isStopped {
            sleep(1)
            descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        }
        return descriptor
    }

    /// Reads a file's bytes (small chunks when paced, so packets leave evenly rather than in bursts) until its
    /// end, a failure or `stop()`; answers the failure and the seconds of audio parsed by then.
    func read(descriptor: Int32, pace: PaceClock?, deliver: Deliver, restartsFile: Bool)
        -> (failure: String?, audioSeconds: Double) {
        read(descriptor: descriptor, chunkSize: pace == nil ? 65536 : 1024, pace: pace, deliver: deliver,
             restartsFile: restartsFile)
    }

    private func read(
        descriptor: Int32, chunkSize: Int, pace: PaceClock?, deliver: Deliver, restartsFile: Bool
    ) -> (failure: String?, audioSeconds: Double) {
        var first = true
        var audioSeconds = 0.0
        // One buffer for every read; each chunk handed on is a copy of what was read, sized to it: a pipe gives a
        // few hundred bytes a read, and a fresh zeroed chunk of `chunkSize` each time cost more than the parsing.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { scratch.deallocate() }
        while !isStopped {
            let count = Glibc.read(descriptor, scratch.baseAddress, chunkSize)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return ("read failed: \(String(cString: strerror(errno)))", audioSeconds) }
            if count == 0 { break }
            let chunk = [UInt8](scratch[..<count])
            guard !isStopped, let parsed = deliver(.bytes(chunk, restartsFile: first && restartsFile)) else { break }
            first = false
            audioSeconds = parsed
            pace?.wait(until: audioSeconds)
        }
        return (nil, audioSeconds)
    }
}

/// Sleeps so that audio leaves at `speed` times real time, measured from the clock's creation.
struct PaceClock {
    let speed: Double
    let start = DispatchTime.now()

    init?(speed pace: Pace) {
        guard case .realTime(let speed) = pace else { return nil }
        self.speed = speed
    }

    func wait(until audioSeconds: Double) {
        let due = start.uptimeNanoseconds + UInt64(audioSeconds / speed * 1e9)
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { usleep(UInt32(min(due - now, 1_000_000_000) / 1000)) }
    }
}

extension SourceReader {
    enum Input {
        case standardInput
        case file(path: String, pace: Pace, loop: Bool)
        case playlist(PlaylistConfig)
    }
}
