import NIOCore

/// Where one event loop's HTTP connections get a stream's HLS: a file of the window at once, a playlist or the
/// preload hint's part at once or once it exists (blocking playlist reload, RFC 8216bis §6.2.5.2), all from the
/// stream's `HLSBoard`, without a task on the stream's loop.
///
/// A held request costs an entry in the desk's wait list, and the desk one timer, for the earliest: those that
/// waited three target durations get 503. The `HLSOrigin` has every desk look again (`update`) once the board
/// has changed. Confined to its loop.
final class HLSDesk {
    /// What a request is answered with, on the desk's loop.
    typealias Respond = (Result<HLSAnswer, HLSRefusal>) -> Void

    private let board: HLSBoard
    private let eventLoop: EventLoop
    /// How long a held request waits: three target durations.
    private let holdLimit: TimeAmount
    private var waits: [Wait] = []
    private var expiry: Scheduled<Void>?

    private struct Wait {
        let request: HLSRequest
        let deadline: NIODeadline
        let respond: Respond
    }

    init(board: HLSBoard, holdLimit: TimeAmount, eventLoop: EventLoop) {
        self.board = board
        self.holdLimit = holdLimit
        self.eventLoop = eventLoop
    }

    /// Answers `request` of session `session` (`HLSSessions.key`) through `respond`: at once, or once the
    /// segment or part it waits for exists; or with `HLSRefusal`. A file of the window is no session's sign of
    /// life: a player asks for the playlist too.
    func answer(_ request: HLSRequest, session: @autoclosure () -> String, respond: @escaping Respond) {
        eventLoop.preconditionInEventLoop()
        if case .file(let name) = request, let file = board.file(named: name) { return respond(.success(file)) }
        board.note(session: session())
        let edge = board.edge
        switch request {
        case .file(let name):
            // The part the hint names is held until it exists; other files are not in the window.
            guard name == edge.nextPart else { return respond(.failure(.notFound("\(name) is not in the window"))) }
        case .playlist(let msn, let part, let skip):
            if let msn, msn > edge.lastComplete + 2 {
                return respond(.failure(.badRequest(
                    "_HLS_msn=\(msn) is more than two segments after the last one, \(edge.lastComplete)")))
            }
            if let playlist = edge.playlist(msn: msn, part: part, skip: skip) { return respond(.success(playlist)) }
        }
        waits.append(Wait(request: request, deadline: .now() + holdLimit, respond: respond))
        if expiry == nil { scheduleExpiry() }
    }

    /// Answers the held requests whose segment or part now exists, and with 404 those for a part that will not
    /// (the stream ended, or was cut otherwise than the hint said).
    func update() {
        eventLoop.preconditionInEventLoop()
        guard !waits.isEmpty else { return }
        let edge = board.edge
        var answers: [(Respond, Result<HLSAnswer, HLSRefusal>)] = []
        waits.removeAll { wait in
            switch wait.request {
            case .file(let name):
                if let file = board.file(named: name) {
                    answers.append((wait.respond, .success(file)))
                } else if name != edge.nextPart {
                    answers.append((wait.respond, .failure(.notFound("\(name) was not made"))))
                } else {
                    return false
                }
            case .playlist(let msn, let part, let skip):
                guard let playlist = edge.playlist(msn: msn, part: part, skip: skip) else { return false }
                answers.append((wait.respond, .success(playlist)))
            }
            return true
        }
        if waits.isEmpty {
            expiry?.cancel()
            expiry = nil
        }
        // Answered once the list is settled: writing an answer may close a connection, and with it nothing here.
        for (respond, result) in answers { respond(result) }
    }

    /// Answers 503 to the requests held past their deadline when the earliest one is due.
    private func scheduleExpiry() {
        guard let first = waits.first else { return expiry = nil }
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        expiry = eventLoop.scheduleTask(deadline: first.deadline) { loopBound.value.expire() }
    }

    private func expire() {
        let now = NIODeadline.now()
        var expired: [Respond] = []
        waits.removeAll { wait in
            guard wait.deadline <= now else { return false }
            expired.append(wait.respond)
            return true
        }
        scheduleExpiry()
        let refusal = HLSRefusal.unavailable("what the request waits for did not come in three target durations")
        for respond in expired { respond(.failure(refusal)) }
    }
}
