import AudioStreamProtocol
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

    /// However many idle HTTP connections come (here 250 under a limit of 200), the descriptors stream sockets and
    /// the control socket need are kept: HTTP connections beyond the share the limit leaves them get a 503 at once.
    @Test func idleHTTPConnectionsLeaveDescriptorsForSubscribers() throws {
        let port = try FreePort.pick()
        // Idle connections are kept longer than the test waits, so none frees its descriptor meanwhile.
        let http = "http: {listen: \"127.0.0.1:\(port)\", headerTimeout: 120}\n"
        let daemon = try DaemonHarness(config: http + DaemonHarness.standardInputConfig,
                                       launcher: ["/usr/bin/prlimit", "--nofile=200", "--"])
        try daemon.waitForHTTP()
        daemon.feed(try Data(contentsOf: Fixtures.named("l3-cbr128-joint.mp3").file))

        var idle: [RawConnection] = []
        for _ in 0..<250 { idle.append(try RawConnection(port: port)) }
        var subscribers: [WireClient] = []
        for _ in 0..<5 { subscribers.append(try SlowSubscriberTests.subscribe(daemon.path("radio.sock"))) }
        try daemon.waitUntil("the subscribers to be served") { try daemon.subscriberCount("radio") == 5 }
        for subscriber in subscribers { #expect(try subscriber.receive() != nil) }

        let refused = try #require(idle.last).readToEnd()
        #expect(String(decoding: refused.bytes, as: UTF8.self).hasPrefix("HTTP/1.0 503 Service Unavailable\r\n"))
        #expect(refused.closed)
        #expect(daemon.log.contains("refusing connections"))
    }

    /// `http.maxListeners` caps HTTP connections whatever the descriptors: one more gets a 503 at once.
    @Test func connectionsBeyondMaxListenersGetA503() throws {
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(
            config: "http: {listen: \"127.0.0.1:\(port)\", maxListeners: 3}\n" + DaemonHarness.standardInputConfig)
        try daemon.waitForHTTP()
        let admitted = try (0..<3).map { _ in try RawConnection(port: port) }
        let refused = try RawConnection(port: port).readToEnd()
        #expect(String(decoding: refused.bytes, as: UTF8.self).hasPrefix("HTTP/1.0 503 Service Unavailable\r\n"))
        withExtendedLifetime(admitted) {}
    }

    /// The daemon raises its soft limit on descriptors to the hard one.
    @Test func theSoftLimitIsRaisedToTheHardOne() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig,
                                       launcher: ["/usr/bin/prlimit", "--nofile=100:1000", "--"])
        try daemon.waitForSocket("radio.sock")
        let limits = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["1000", "1000"])
    }
}
