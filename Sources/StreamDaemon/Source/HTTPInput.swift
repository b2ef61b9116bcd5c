import AudioStreamProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix

/// An HTTP(S) stream read once to its end, for command-line tools: the daemon's HTTP source without reconnects,
/// on an event loop of its own while the caller waits.
public final class HTTPInput: HTTPSourceDelegate, @unchecked Sendable {
    /// What the stream delivers, in order.
    public enum Event {
        /// The response began: the station's headers.
        case connected(HTTPStreamInfo)
        /// Audio bytes, valid during the call only.
        case audio(UnsafeRawBufferPointer)
        case metadata(ICYMetadata)
    }

    private let body: (Event) throws -> Void
    private let done: EventLoopPromise<Void>
    private var source: HTTPSource?

    private init(body: @escaping (Event) throws -> Void, done: EventLoopPromise<Void>) {
        self.body = body
        self.done = done
    }

    /// Fetches `url`, following redirects, and hands `body` its events until the response ends.
    /// - Throws: `HTTPInputError` when the stream cannot be fetched or fails, or what `body` throws.
    public static func read(_ url: URL, connectTimeout: Double = 10, stallTimeout: Double = 15,
                            _ body: @escaping (Event) throws -> Void) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let input = HTTPInput(body: body, done: loop.makePromise())
        // Failures reach the caller as the thrown error; the log would only repeat them.
        let logger = Logger(label: "audiostream") { _ in SwiftLogNoOpLogHandler() }
        let config = HTTPSourceConfig(url: url, connectTimeout: connectTimeout, stallTimeout: stallTimeout, reconnect: nil)
        loop.execute {
            input.source = HTTPSource(config: config, eventLoop: loop, logger: logger, delegate: input)
            input.source?.start()
        }
        try input.done.futureResult.wait()
    }

    private func deliver(_ event: Event) {
        do {
            try body(event)
        } catch {
            source?.stop()
            done.fail(error)
        }
    }

    func sourceConnected(_ info: HTTPStreamInfo) {
        deliver(.connected(info))
    }

    /// The caller's parser judges the bytes, and a single read has no backoff to reset: every byte counts as audio.
    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool {
        deliver(.audio(audio))
        return true
    }

    func sourceReceived(_ metadata: ICYMetadata) {
        deliver(.metadata(metadata))
    }

    /// A single read has no reconnects to announce; how it ends reaches the caller through `sourceEnded`.
    func sourceChanged(_ state: SourceState) {}

    func sourceEnded(failure: String?) {
        source = nil
        if let failure {
            done.fail(HTTPInputError(description: failure))
        } else {
            done.succeed()
        }
    }
}

/// An HTTP stream that could not be read, with the reason.
public struct HTTPInputError: Error, CustomStringConvertible {
    public let description: String
}
