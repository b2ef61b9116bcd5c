import AudioStreamProtocol
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// The daemon under systemd's protocols, with systemd's own tools where they exist: notifications to a
/// stand-in socket, socket activation by `systemd-socket-activate`, journal-style log lines.
@Suite struct SystemdTests {
    static let music = Fixtures.named("l3-cbr128-joint.mp3").file.path
    static let config = """
        control: control.sock
        streams:
          - name: radio
            source: file:\(music)
            loop: true
            socket: radio.sock
        """

    @Test(arguments: [false, true])
    func notificationsComeInOrder(abstract: Bool) throws {
        let folder = try DaemonHarness.makeFolder()
        let notify = try NotifySocket(path: folder.appendingPathComponent("notify").path, abstract: abstract)
        let daemon = try DaemonHarness(config: Self.config, folder: folder, environment: [
            "NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "400000",
        ])
        try notify.wait(for: "READY=1") { $0.contains { $0.hasPrefix("READY=1\n") } }
        // Ready only once the stream's socket listens, with a one-line status.
        _ = try WireClient(path: daemon.path("radio.sock"))
        #expect(notify.messages.first == "READY=1\nSTATUS=1 stream(s), 0 subscriber(s)")
        try notify.wait(for: "two watchdog pings") { $0.filter { $0 == "WATCHDOG=1" }.count >= 2 }

        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        try notify.wait(for: "the subscriber in the status") { $0.contains("STATUS=1 stream(s), 1 subscriber(s)") }

        daemon.signal(SIGHUP)
        try notify.wait(for: "the end of the reload") { $0.last?.hasPrefix("READY=1\n") == true && $0.count(where: { $0.hasPrefix("READY=1") }) == 2 }
        let reloading = try #require(notify.messages.first { $0.hasPrefix("RELOADING=1\n") })
        let stamp = try #require(Int64(reloading.dropFirst("RELOADING=1\nMONOTONIC_USEC=".count)))
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        #expect(stamp <= nowMicroseconds && nowMicroseconds - stamp < 20_000_000)

        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        try notify.wait(for: "STOPPING=1") { $0.contains("STOPPING=1") }
        let order = notify.messages.compactMap { message in
            ["READY=1", "RELOADING=1", "STOPPING=1"].first { message.hasPrefix($0) }
        }
        #expect(order == ["READY=1", "RELOADING=1", "READY=1", "STOPPING=1"])
        _ = subscriber.finish()
    }

    @Test func aWatchdogForAnotherProcessIsNotPinged() throws {
        let folder = try DaemonHarness.makeFolder()
        let notify = try NotifySocket(path: folder.appendingPathComponent("notify").path, abstract: false)
        let daemon = try DaemonHarness(config: Self.config, folder: folder, environment: [
            "NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1",
        ])
        try notify.wait(for: "READY=1") { $0.contains { $0.hasPrefix("READY=1\n") } }
        usleep(600_000)
        try notify.wait(for: "a moment") { _ in true }
        #expect(!notify.messages.contains("WATCHDOG=1"))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func socketsComeFromSystemdSocketActivate() throws {
        let folder = try DaemonHarness.makeFolder()
        let radio = folder.appendingPathComponent("radio.sock").path
        let control = folder.appendingPathComponent("control.sock").path
        // Named after the stream, and the control socket by its path: both ways of matching.
        let daemon = try DaemonHarness(config: Self.config, folder: folder, launcher: [
            "/usr/bin/systemd-socket-activate", "-l", radio, "-l", control, "--fdname=radio:unnamed",
        ])
        // The daemon starts at the first connection, as systemd would start the service.
        let subscriber = try daemon.subscribe("radio", kinds: "packets")
        #expect(daemon.log.contains("stream=radio [StreamDaemon] listening on \(radio) (from systemd)"))
        try daemon.waitUntil("packets") { subscriber.linesSoFar > 10 }

        // A reload that restarts the stream gets the same socket back.
        try Self.config.replacingOccurrences(of: "loop: true", with: "loop: true\n    pace: 2")
            .write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the end of the old stream") { subscriber.events.last?["event"] as? String == "end" }
        let again = try daemon.subscribe("radio", kinds: "packets")
        try daemon.waitUntil("packets after the reload") { again.linesSoFar > 10 }

        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        // The sockets are systemd's: the daemon leaves them in place.
        #expect(FileManager.default.fileExists(atPath: radio))
        #expect(FileManager.default.fileExists(atPath: control))
    }

    @Test func journalLinesCarryPrioritiesAndNoTimestamps() throws {
        let folder = try DaemonHarness.makeFolder()
        let daemon = try DaemonHarness(config: Self.config, folder: folder,
                                       environment: DaemonHarness.journalEnvironment(in: folder))
        try daemon.waitForSocket("radio.sock")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil }, "\(lines)")
        #expect(lines.contains("<6>stream=radio listening on \(folder.path)/radio.sock"))
        #expect(!lines.contains { $0.range(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d"#, options: .regularExpression) != nil })
    }
}
