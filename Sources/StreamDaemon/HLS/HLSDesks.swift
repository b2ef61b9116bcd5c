import NIOCore

/// A stream's HLS as the event loops serve it: the board its origin writes, and a desk on each loop for the
/// connections living there. Each desk is bound to its loop, and reached there only.
final class HLSDesks: Sendable {
    let board: HLSBoard
    private let desks: [NIOLoopBoundBox<HLSDesk>]
    /// The stream's loop, where the origin changes the board.
    let home: EventLoop
    /// The longest a request is held before its 503.
    let holdLimit: TimeAmount

    /// Desks on `loops` for a stream on `home`, holding requests at most three segments of `settings`.
    init(config: HLSConfig, loops: [EventLoop], home: EventLoop) {
        self.home = home
        let targetDuration = config.settings.targetDuration
        let board = HLSBoard(targetDuration: targetDuration)
        self.board = board
        let holdLimit = TimeAmount.seconds(Int64(3 * targetDuration))
        self.holdLimit = holdLimit
        desks = loops.map { loop in
            NIOLoopBoundBox.makeBoxSendingValue(HLSDesk(board: board, holdLimit: holdLimit, eventLoop: loop),
                                                eventLoop: loop)
        }
    }

    /// The desk on `loop`, for a connection living there; call on `loop`.
    func desk(on loop: EventLoop) -> HLSDesk {
        desks.first { $0.eventLoop === loop }!.value
    }

    /// Has every desk answer what the board's change lets it, each other loop's in one task; call on the
    /// stream's loop. Other loops first, so that they write their answers while this one writes its own.
    func update() {
        home.preconditionInEventLoop()
        for desk in desks where desk.eventLoop !== home {
            desk.eventLoop.execute { desk.value.update() }
        }
        for desk in desks where desk.eventLoop === home { desk.value.update() }
    }
}
