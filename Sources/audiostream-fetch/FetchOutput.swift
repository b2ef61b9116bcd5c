import AudioStreamProtocol
import Foundation

/// What `audiostream-fetch` writes to standard output, and `audiostream` reads (its `FetchedInput`): frames in the
/// wire protocol's framing, a 4-byte big-endian length counting the bytes after it, a kind byte, then the payload,
/// in the order the response gave them:
/// - 1, station: the response's station headers (`HTTPStreamInfo.headers`) as `name: value` lines; first, once;
/// - 2, audio: audio bytes, the ICY blocks taken out;
/// - 3, metadata: the text of an ICY block, found after all the audio before it;
/// - 4, failure: why the URL could not be read, one line; the last frame, and the exit status is then 1.
/// The response ended well when the output ends with no failure frame and the exit status is 0.
struct FetchOutput {
    private enum Kind: UInt8 {
        case station = 1
        case audio = 2
        case metadata = 3
        case failure = 4
    }

    /// A write that failed: the reader is gone.
    struct Closed: Error {}

    /// Ends this process once the reader of standard output is gone, however `audiostream` ended, even while the
    /// station sends nothing: a fetch never outlives its reader.
    func endWhenReaderLeaves() {
        Thread.detachNewThread {
            // Events 0: a pipe's writer is woken by POLLERR alone, when its last reader closes it.
            var watched = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while poll(&watched, 1, -1) < 0, errno == EINTR {}
            if watched.revents & Int16(POLLERR | POLLHUP) != 0 { _exit(1) }
        }
    }

    func station(_ info: HTTPStreamInfo) throws {
        try write(.station, text: info.headers.map { "\($0.name): \($0.value)\n" }.joined())
    }

    func audio(_ bytes: UnsafeRawBufferPointer) throws {
        try write(.audio, bytes)
    }

    func metadata(_ metadata: ICYMetadata) throws {
        try write(.metadata, text: metadata.text)
    }

    func failure(_ reason: String) throws {
        try write(.failure, text: reason)
    }

    private func write(_ kind: Kind, text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write(kind, $0) }
    }

    private func write(_ kind: Kind, _ payload: UnsafeRawBufferPointer) throws {
        let frame = WireProtocol.header(type: kind.rawValue, payloadSize: payload.count) + payload
        try frame.withUnsafeBytes { frame in
            var written = 0
            while written < frame.count {
                let count = Foundation.write(STDOUT_FILENO, frame.baseAddress! + written, frame.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw Closed() }
                written += count
            }
        }
    }
}
