import AudioStreamProtocol
import Logging
import Metrics
import NIOCore

/// One source of a stream, main or fallback, as its `SourceSwitch` sees it: what the source reports comes here,
/// and goes on to the switch naming this input, so that the switch knows whose it is (and ignores a source it has
/// stopped). While the source is not on the air, what it said is kept here until it is.
final class SourceInput {
    enum Role {
        case main, fallback
    }

    let role: Role
    /// The switch its source reports to, on the stream's loop.
    weak var owner: SourceSwitch?
    /// Parses the source's bytes on the side while it is not on the air; nil while they go to the pipeline.
    var probe: SourceProbe?
    /// What the source said when it connected, and its last ICY block, while it is not on the air.
    var station: HTTPStreamInfo?
    var metadata: ICYMetadata?
    /// The stream's seconds of audio when the source went on the air: a file is paced by its own audio.
    var audioSecondsAtStart = 0.0
    /// Why the source last lost its connection.
    var lastError: String?

    private init(role: Role) {
        self.role = role
    }

    /// The source `config` names, in `role`, not started yet; its reports reach the input's `owner` on
    /// `eventLoop`.
    static func make(_ config: SourceConfig, role: Role, eventLoop: EventLoop, logger: Logger,
                     reconnects: Counter?) -> (input: SourceInput, source: any StreamSource) {
        let input = SourceInput(role: role)
        var logger = logger
        if role == .fallback { logger[metadataKey: "source"] = "fallback" }
        switch config {
        case .http(let http):
            return (input, HTTPSource(config: http, eventLoop: eventLoop, logger: logger, reconnects: reconnects,
                                      delegate: input))
        case .push(let push):
            return (input, PushSource(config: push, eventLoop: eventLoop, logger: logger, reconnects: reconnects,
                                      delegate: input))
        case .standardInput, .file, .playlist:
            return (input, ReaderSource(SourceReader(config: config)!, eventLoop: eventLoop) { input.deliver($0) })
        }
    }

    /// Takes a reader's output on the loop.
    /// - Returns: the source's seconds of audio so far, or nil to stop reading.
    private func deliver(_ output: SourceReader.Output) -> Double? {
        guard let owner else { return nil }
        switch output {
        case .bytes(let bytes, let restartsFile):
            return bytes.withUnsafeBytes { owner.received($0, restartsFile: restartsFile, from: self) }
        case .segment(let item):
            return owner.began(item, from: self)
        case .warning(let message):
            return owner.skipped(message, from: self)
        case .end(let failure):
            owner.ended(failure: failure, from: self)
            return nil
        }
    }
}

extension SourceInput: HTTPSourceDelegate {
    func sourceConnected(_ info: HTTPStreamInfo) {
        owner?.connected(info, from: self)
    }

    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool {
        owner?.received(audio, from: self) ?? false
    }

    func sourceReceived(_ metadata: ICYMetadata) {
        owner?.received(metadata, from: self)
    }

    func sourceChanged(_ state: SourceState) {
        if let error = state.error { lastError = error }
        owner?.changed(state, from: self)
    }

    func sourceEnded(failure: String?) {
        owner?.ended(failure: failure, from: self)
    }
}
