import NIOConcurrencyHelpers
import NIOCore

/// What every event loop reads of a stream's HLS: the files of the window, where the list stands (`HLSEdge`) and
/// the sessions that asked. The stream's `HLSOrigin` writes it on the stream's loop; HTTP connections read it on
/// their own, under a lock held for a lookup. A player asks twice a part: going through the stream's loop for
/// what changes twice a second would cost each request two tasks.
final class HLSBoard: Sendable {
    private let files = NIOLockedValueBox<[String: HLSAnswer]>([:])
    private let current = NIOLockedValueBox(HLSEdge())
    private let sessions: NIOLockedValueBox<HLSSessions>
    /// How long a session counts as a listener after it last asked.
    let sessionLifetime: TimeAmount

    init(targetDuration: Int) {
        let sessions = HLSSessions(targetDuration: targetDuration)
        sessionLifetime = sessions.lifetime
        self.sessions = NIOLockedValueBox(sessions)
    }

    /// The file called `name`, if it is in the window.
    func file(named name: String) -> HLSAnswer? {
        files.withLockedValue { $0[name] }
    }

    func put(_ file: HLSAnswer, named name: String) {
        files.withLockedValue { $0[name] = file }
    }

    func remove(_ names: [String]) {
        files.withLockedValue { files in
            for name in names { files[name] = nil }
        }
    }

    /// Where the list stands; set after the files it names are put.
    var edge: HLSEdge {
        get { current.withLockedValue { $0 } }
        set { current.withLockedValue { $0 = newValue } }
    }

    /// Notes that session `key` (`HLSSessions.key`) asked now.
    func note(session key: String) {
        sessions.withLockedValue { $0.note(key) }
    }

    /// The sessions that asked within two target durations.
    func listeners() -> Int {
        sessions.withLockedValue { $0.count() }
    }
}
