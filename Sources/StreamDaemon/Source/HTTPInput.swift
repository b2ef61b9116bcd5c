import AudioStreamProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix

/// An HTTP(S) stream read once to its end, for command-line tools: the daemon's HTTP source without reconnects,
/// on an event loop that the calling thread runs until the response ends, so that its events reach the caller
/// on its own thread.
public final class HTTPInput: NetworkSourceDelegate {
    /// What the stream delivers, in order.
    public enum Event {
        /// The response began: the station's headers.
        case connected(HTTPStreamInfo)
        /// Audio bytes, valid during the call only.
        case audio(UnsafeRawBufferPointer)
        case metadata(ICYMetadata)
    }

    private let body: (Event) throws -> Void
    /// Takes how the read ended, once.
    private let done: (Result<Void, Error>) -> Void
    private var source: HTTPSource?

    private init(body: @escaping (Event) throws -> Void, done: @escaping (Result<Void, Error>) -> Void) {
        self.body = body
        self.done = done
    }

    /// Fetches `url`, following redirects, and hands `body` its events until the response ends.
    /// - Throws: `HTTPInputError` when the stream cannot be fetched or fails, or what `body` throws.
    public static func read(_ url: URL, connectTimeout: Double = 10, stallTimeout: Double = 15,
                            _ body: @escaping (Event) throws -> Void) throws {
        var outcome: Result<Void, Error>?
        // The source holds its delegate unowned: the input lives as long as the loop runs.
        var input: HTTPInput?
        // Failures reach the caller as the thrown error; the log would only repeat them.
        let logger = Logger(label: "audiostream") { _ in SwiftLogNoOpLogHandler() }
        let config = HTTPSourceConfig(url: url, connectTimeout: connectTimeout, stallTimeout: stallTimeout, reconnect: nil)
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            let reader = HTTPInput(body: body) { result in
                guard outcome == nil else { return }
                outcome = result
                loop.shutdownGracefully { _ in }
            }
            reader.source = HTTPSource(config: config, eventLoop: loop, logger: logger, delegate: reader)
            reader.source?.start()
            input = reader
        }
        withExtendedLifetime(input) {}
        try outcome?.get()
    }

    private func deliver(_ event: Event) {
        do {
            try body(event)
        } catch {
            source?.stop()
            done(.failure(error))
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
        done(failure.map { .failure(HTTPInputError(description: $0)) } ?? .success(()))
    }
}

/// An HTTP stream that could not be read, with the reason.
public struct HTTPInputError: Error, CustomStringConvertible {
    public let description: String
}
