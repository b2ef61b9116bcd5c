import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// A daemon out of file descriptors stops accepting subscribers for a while, says so, keeps serving the ones it
/// has, and serves newcomers again once descriptors are free.
@Suite struct DescriptorExhaustionTests {
    /// Few enough that a crowd of subscribers exhausts them quickly.
    static let descriptorLimit = 64

    @Test func runningOutOfDescriptorsPausesAcceptingUntilSomeAreFree() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig,
                                       launcher: ["/usr/bin/prlimit", "--nofile=\(Self.descriptorLimit)", "--"])
        try daemon.waitForSocket("radio.sock")
        daemon.feed(try Data(contentsOf: Fixtures.named("l3-cbr128-joint.mp3").file))

        var crowd: [WireClient] = []
        for _ in 0..<(Self.descriptorLimit * 2) { crowd.append(try SlowSubscriberTests.subscribe(daemon.path("radio.sock"))) }
        try daemon.waitUntil("the daemon to run out of descriptors") {
            daemon.log.contains("cannot accept subscribers for now")
        }
        #expect(daemon.process.isRunning)

        crowd.removeAll()
        let newcomer = try SlowSubscriberTests.subscribe(daemon.path("radio.sock"))
        try daemon.waitUntil("the newcomer to be served") { try daemon.subscriberCount("radio") == 1 }
        #expect(try newcomer.receive() != nil)
    }
}
