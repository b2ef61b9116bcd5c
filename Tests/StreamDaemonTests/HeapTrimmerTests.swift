import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// The daemon's periodic heap trim, on a loop whose clock the test moves.
@Suite struct HeapTrimmerTests {
    @Test func theHeapIsTrimmedOnceAnIntervalUntilCancelled() {
        let loop = EmbeddedEventLoop()
        let trims = NIOLockedValueBox(0)
        let task = HeapTrimmer.start(on: loop, interval: .seconds(30)) { trims.withLockedValue { $0 += 1 } }
        loop.advanceTime(by: .seconds(29))
        #expect(trims.withLockedValue { $0 } == 0)
        loop.advanceTime(by: .seconds(61))
        #expect(trims.withLockedValue { $0 } == 3)
        task.cancel()
        loop.advanceTime(by: .seconds(300))
        #expect(trims.withLockedValue { $0 } == 3)
    }
}
