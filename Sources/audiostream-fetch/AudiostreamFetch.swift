import ArgumentParser
import AudioStreamProtocol
import Foundation
import StreamDaemon

/// `audiostream-fetch URL`: reads one http(s) URL for `audiostream`, as the daemon's HTTP source does (redirects,
/// credentials in the URL, ICY metadata, TLS), and writes it to standard output as a `FetchOutput` stream. Its own
/// executable, so that the parser's commands link no NIO or TLS: `audiostream` runs it only for a URL.
@main
struct AudiostreamFetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiostream-fetch",
        abstract: "Internal: fetches an http(s) URL for audiostream, which runs it and reads its output.",
        discussion: "Standard output is a framed stream for audiostream to read, not for people.",
        version: packageVersion)

    @Argument(help: "The http(s) URL.")
    var url: String

    func run() throws {
        let output = FetchOutput()
        output.endWhenReaderLeaves()
        guard let url = URL(string: url), url.host != nil else { return try fail("not a valid URL", to: output) }
        do {
            try HTTPInput.read(url) { event in
                switch event {
                case .connected(let info): try output.station(info)
                case .audio(let bytes): try output.audio(bytes)
                case .metadata(let metadata): try output.metadata(metadata)
                }
            }
        } catch let error as HTTPInputError {
            try fail(error.description, to: output)
        } catch {
            // Only a write fails otherwise: the reader is gone, and there is no one to tell.
            throw ExitCode.failure
        }
    }

    /// Ends with `reason` as the last frame, for `audiostream` to report.
    private func fail(_ reason: String, to output: FetchOutput) throws {
        try? output.failure(reason)
        throw ExitCode.failure
    }
}
