import NIOConcurrencyHelpers
import NIOCore

/// A stream's HLS as the event loops serve it: the board its origin writes, and a desk on each loop that serves
/// its connections (the HTTP server's loops, and the HLS lane's), made when the loop first asks. Each desk is
/// bound to its loop, and reached there only.
final class HLSDesks: Sendable {
    let board: HLSBoard
    private let desks: NIOLockedValueBox<[NIOLoopBoundBox<HLSDesk>]> = NIOLockedValueBox([])
    /// The stream's loop, where the origin changes the board.
    private let home: EventLoop
    /// The longest a request is held before its 503.
    let holdLimit: TimeAmount

    /// Desks for a stream on `home`, holding requests at most three segments of `settings`.
    init(config: HLSConfig, home: EventLoop) {
        self.home = home
        let targetDuration = config.settings.targetDuration
        board = HLSBoard(targetDuration: targetDuration)
        holdLimit = TimeAmount.seconds(Int64(3 * targetDuration))
    }

    /// The desk on `loop`, for a connection living there; call on `loop`.
    func desk(on loop: EventLoop) -> HLSDesk {
        desks.withLockedValue { desks in
            if let desk = desks.first(where: { $0.eventLoop === loop }) { return desk.value }
            let desk = HLSDesk(board: board, holdLimit: holdLimit, eventLoop: loop)
            desks.append(NIOLoopBoundBox(desk, eventLoop: loop))
            return desk
        }
    }

    /// Has every desk answer what the board's change lets it, each other loop's in one task; call on the
    /// stream's loop. Other loops first, so that they write their answers while this one writes its own.
    func update() {
        home.preconditionInEventLoop()
        let desks = desks.withLockedValue { $0 }
        for desk in desks where desk.eventLoop !== home {
            desk.eventLoop.execute { desk.value.update() }
        }
        for desk in desks where desk.eventLoop === home { desk.value.update() }
    }
}
