@testable import StreamDaemon
import Testing

/// A looping list of missing files tells each one's skip at most once a minute, and counts the skips held back.
@Suite struct SkipWarningsTests {
    @Test func eachItemIsToldAtMostOnceAMinuteAndTheHeldBackAreCounted() {
        var warnings = SkipWarnings()
        #expect(warnings.warning(forItemAt: "/a.mp3", "cannot open /a.mp3", now: 0) == "cannot open /a.mp3: skipped")
        #expect(warnings.warning(forItemAt: "/b.mp3", "cannot open /b.mp3", now: 1) == "cannot open /b.mp3: skipped")
        // The list loops 1,000 times within the minute: nothing more is told.
        for pass in 0..<1000 {
            let now = 2 + Double(pass) * 0.05
            #expect(warnings.warning(forItemAt: "/a.mp3", "cannot open /a.mp3", now: now) == nil)
            #expect(warnings.warning(forItemAt: "/b.mp3", "cannot open /b.mp3", now: now) == nil)
        }
        let told = warnings.warning(forItemAt: "/a.mp3", "cannot open /a.mp3", now: 60)
        #expect(told == "cannot open /a.mp3: skipped (2000 more skips of items told less than a minute ago were not told)")
        #expect(warnings.warning(forItemAt: "/b.mp3", "cannot open /b.mp3", now: 61) == "cannot open /b.mp3: skipped")
    }

    @Test func itsMemoryIsBoundedByTheItemsToldWithinAMinute() {
        var warnings = SkipWarnings()
        for index in 0..<(3 * SkipWarnings.maximumItems) {
            // One new item every 10 ms: at most 6,000 told within any minute, far below the bound.
            let path = "/missing-\(index).mp3"
            #expect(warnings.warning(forItemAt: path, "cannot open \(path)", now: Double(index) / 100) != nil)
        }
        #expect(warnings.lastTold.count <= SkipWarnings.maximumItems)
    }
}
