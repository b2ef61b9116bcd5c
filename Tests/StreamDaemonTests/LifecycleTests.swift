import AudioStreamProtocol
import FixtureSupport
import Foundation
import NIOCore
import StreamDaemon
import Testing

/// Signals, reloads and socket files, on the real daemon binary.
@Suite struct LifecycleTests {
    static let music = Fixtures.named("l3-cbr128-joint.mp3").file.path

    /// A looped file stream named `name`, at real time unless told otherwise.
    static func stream(_ name: String, pace: String = "realtime") -> String {
        """
          - name: \(name)
            source: file:\(music)
            pace: \(pace)
            loop: true
            socket: \(name).sock

        """
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsEveryStreamAndRemovesTheSockets(signal: Int32) throws {
        let daemon = try DaemonHarness(config: "control: control.sock\nstreams:\n" + Self.stream("radio"))
        try daemon.waitForSocket("radio.sock")
        let subscriber = try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets",
                                               folder: daemon.folder, name: "radio")
        try daemon.waitUntil("the subscriber to get packets") { subscriber.linesSoFar > 3 }
        daemon.signal(signal)
        #expect(try daemon.waitForExit() == 0)
        let result = subscriber.finish()
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.lines.last == #"{"event":"end","reason":"daemonStopping"}"#)
        for socket in ["radio.sock", "control.sock"] {
            #expect(!FileManager.default.fileExists(atPath: daemon.path(socket)))
        }
    }

    @Test func reloadTouchesOnlyTheStreamsThatChanged() throws {
        let daemon = try DaemonHarness(config: "control: control.sock\nstreams:\n"
            + Self.stream("kept") + Self.stream("changed") + Self.stream("removed"))
        for name in ["kept", "changed", "removed"] { try daemon.waitForSocket("\(name).sock") }
        let subscribers = try ["kept", "changed", "removed"].map { name in
            try SubscriberProcess(socket: daemon.path("\(name).sock"), kinds: "packets", folder: daemon.folder,
                                  name: name)
        }
        try daemon.waitUntil("the subscribers to get packets") { subscribers.allSatisfy { $0.linesSoFar > 3 } }

        try ("control: control.sock\nstreams:\n" + Self.stream("kept")
            + Self.stream("changed", pace: "2") + Self.stream("added"))
            .write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForSocket("added.sock")
        try daemon.waitUntil("the removed stream to go") { try daemon.streamStatus("removed") == nil }

        // Subscribers of the changed and removed streams were told the end and why; the kept one is still served.
        for (subscriber, reason) in zip(subscribers.dropFirst(), ["restartedByReload", "removedByReload"]) {
            let result = subscriber.finish()
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.lines.last == #"{"event":"end","reason":"\#(reason)"}"#)
        }
        #expect(!FileManager.default.fileExists(atPath: daemon.path("removed.sock")))
        let linesBefore = subscribers[0].linesSoFar
        try daemon.waitUntil("the kept stream to go on") { subscribers[0].linesSoFar > linesBefore + 3 }
        #expect(try daemon.subscriberCount("kept") == 1)
        try daemon.waitForSocket("changed.sock")

        // A broken file is refused and changes nothing.
        try "streams: [".write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the refusal to be logged") { daemon.log.contains("reload refused") }
        let names = (try daemon.status()["streams"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.sorted() == ["added", "changed", "kept"])
        #expect(try daemon.subscriberCount("kept") == 1)

        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        #expect(subscribers[0].finish().status == 0)
    }

    /// A reload that changes only the limits and the socket's mode applies them to the running stream: its
    /// subscriber stays connected and keeps receiving, status shows the new limits, the socket file the new mode.
    @Test func aReloadThatChangesOnlyLimitsKeepsTheSubscribers() throws {
        let config = { (limits: String, mode: String) in
            "control: control.sock\nstreams:\n" + Self.stream("radio").replacingOccurrences(
                of: "socket: radio.sock", with: "socket: {path: radio.sock, mode: \"\(mode)\"}\n    \(limits)")
        }
        let daemon = try DaemonHarness(config: config("queueSeconds: 5", "0660"))
        let subscriber = try daemon.subscribe("radio", kinds: "packets,metadata")
        try daemon.waitUntil("the subscriber to get packets") { subscriber.linesSoFar > 3 }
        let subscriberIDs = {
            (try daemon.streamStatus("radio")?["subscribers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        }
        let idsBefore = try subscriberIDs()

        try config("queueSeconds: 3\n    disconnectAfter: 4\n    historySeconds: 2", "0600")
            .write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitUntil("the new limits") {
            let limits = try daemon.streamStatus("radio")?["limits"] as? [String: Int]
            return limits == ["queueSeconds": 3, "disconnectAfter": 4, "historySeconds": 2]
        }
        let linesBefore = subscriber.linesSoFar
        try daemon.waitUntil("the subscriber to go on") { subscriber.linesSoFar > linesBefore + 3 }
        #expect(!subscriber.events.contains { $0["event"] as? String == "end" })
        #expect(try subscriberIDs() == idsBefore)
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.path("radio.sock"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(daemon.log.contains("new limits, socket and recording settings applied without a restart"))

        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        #expect(subscriber.finish().lines.last == #"{"event":"end","reason":"daemonStopping"}"#)
    }

    /// A reload reads its file off the event loops: while the file is a FIFO nobody writes yet, every subscriber
    /// goes on receiving (there is one on each loop, the supervisor's among them); once written, the reload is
    /// applied.
    @Test func aReloadWhoseFileBlocksStallsNoStream() throws {
        let folder = try DaemonHarness.makeFolder()
        let notify = try NotifySocket(path: folder.appendingPathComponent("notify").path, abstract: false)
        let config = "control: control.sock\nstreams:\n" + Self.stream("radio")
        let daemon = try DaemonHarness(config: config, folder: folder, environment: ["NOTIFY_SOCKET": notify.address])
        try daemon.waitForSocket("radio.sock")
        // Connections go to the loops in turn: as many as there are loops, one after another with nothing else
        // asked of the daemon meanwhile, reach each of them.
        let subscribers = try (0..<System.coreCount).map { index in
            try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets", folder: daemon.folder,
                                  name: "radio-\(index)")
        }
        try daemon.waitUntil("every subscriber to get packets") { subscribers.allSatisfy { $0.linesSoFar > 3 } }
        let fifo = daemon.path("config.yaml")
        try FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        var written = false
        // Whatever happens, the daemon's read ends, so that it can stop.
        defer { if !written { try? Self.feed(config, fifo: fifo, daemon: daemon) } }

        daemon.signal(SIGHUP)
        try notify.wait(for: "RELOADING=1") { $0.contains { $0.hasPrefix("RELOADING=1\n") } }
        let linesBefore = subscribers.map(\.linesSoFar)
        try daemon.waitUntil("every subscriber to go on while the file is read") {
            zip(subscribers, linesBefore).allSatisfy { $0.linesSoFar > $1 + 10 }
        }
        #expect(!daemon.log.contains("reloading"))

        try Self.feed(config, fifo: fifo, daemon: daemon)
        written = true
        try notify.wait(for: "the end of the reload") { $0.count { $0.hasPrefix("READY=1") } == 2 }
        #expect(daemon.log.contains("reloading \(fifo)"))
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        for subscriber in subscribers { #expect(subscriber.finish().status == 0) }
    }

    /// Writes `text` to the FIFO once the daemon has opened it for reading.
    static func feed(_ text: String, fifo path: String, daemon: DaemonHarness) throws {
        var writer: Int32 = -1
        try daemon.waitUntil("the daemon to open \(path)") {
            writer = open(path, O_WRONLY | O_NONBLOCK)
            return writer >= 0
        }
        defer { close(writer) }
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count - 1) }
    }

    /// A subscriber told `restartedByReload` may connect again at once: until the restarted stream listens it
    /// finds no socket, and it is never let into the old stream's closing listener, whose backlog the closing
    /// resets before any welcome. Without that order about one restart in six reset such a subscriber.
    @Test func aSubscriberConnectingAgainRightAfterARestartIsWelcomed() throws {
        let config = { (pace: String) in "streams:\n" + Self.stream("radio", pace: pace) }
        let daemon = try DaemonHarness(config: config("realtime"))
        try daemon.waitForSocket("radio.sock")
        var client = try Self.welcomedSubscriber(daemon.path("radio.sock"))
        for restart in 1...20 {
            try config(restart % 2 == 1 ? "2" : "realtime")
                .write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
            while let message = try client.receive() {
                if case .json(.event, let text) = message, text.contains(#""event":"end""#) { break }
            }
            client = try Self.welcomedSubscriber(daemon.path("radio.sock"))
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// A packet subscriber of the socket at `path`, connected as soon as the socket takes connections; its first
    /// message must be the welcome.
    static func welcomedSubscriber(_ path: String) throws -> WireClient {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                let client = try WireClient(path: path)
                try client.send(.hello, json: Hello(kinds: [.packets]).json)
                let first = try client.receive()
                let welcomed = if case .json(.welcome, _) = first { true } else { false }
                #expect(welcomed, "connected, then got \(String(describing: first)) instead of the welcome")
                return client
            } catch let error as WireClientError where [ENOENT, ECONNREFUSED].contains(error.code) && Date() < deadline {
                usleep(5_000)
            }
        }
    }

    @Test func subscribersThatLeaveRightAfterTheirHelloAreForgotten() throws {
        let daemon = try DaemonHarness(config: "control: control.sock\nstreams:\n" + Self.stream("radio"))
        try daemon.waitForSocket("radio.sock")
        for _ in 0..<200 {
            let client = try WireClient(path: daemon.path("radio.sock"))
            try client.send(.hello, json: Hello(kinds: [.metadata]).json)
        }
        let steady = try SubscriberProcess(socket: daemon.path("radio.sock"), kinds: "packets", folder: daemon.folder,
                                           name: "steady")
        try daemon.waitUntil("only the steady subscriber to be left") { try daemon.subscriberCount("radio") == 1 }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        #expect(steady.finish().status == 0)
    }

    @Test func aReloadCanGiveAStreamTheOldControlSocket() throws {
        let daemon = try DaemonHarness(config: "control: first.sock\nstreams:\n" + Self.stream("kept"))
        try daemon.waitForSocket("first.sock")
        try ("control: second.sock\nstreams:\n" + Self.stream("kept") + """
              - name: moved
                source: file:\(Self.music)
                loop: true
                socket: first.sock

            """).write(toFile: daemon.path("config.yaml"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForSocket("second.sock")
        try daemon.waitUntil("the moved stream to run") {
            try daemon.status(control: "second.sock")["streams"].map { "\($0)".contains("moved") } ?? false
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// Whatever the umask (here 000), what the daemon makes is for its owner and group only: sockets 0660 and
    /// folders 0770, unless a `mode:` says otherwise, the control socket's too.
    @Test func socketsAndFoldersAreOwnerAndGroupOnlyWhateverTheUmask() throws {
        let daemon = try DaemonHarness(config: """
            control: {path: run/admin/control.sock, mode: "0600"}
            streams:
              - name: radio
                source: file:\(Self.music)
                loop: true
                socket: run/radio.sock
              - name: other
                source: file:\(Self.music)
                loop: true
                socket: {path: run/other.sock, mode: "0666"}
            """, launcher: ["/bin/sh", "-c", "umask 000 && exec \"$0\" \"$@\""])
        try daemon.waitForSocket("run/admin/control.sock")
        try daemon.waitForSocket("run/radio.sock")
        try daemon.waitForSocket("run/other.sock")
        let mode = { (name: String) in
            try FileManager.default.attributesOfItem(atPath: daemon.path(name))[.posixPermissions] as? Int
        }
        #expect(try mode("run") == 0o770)
        #expect(try mode("run/admin") == 0o770)
        #expect(try mode("run/radio.sock") == 0o660)
        #expect(try mode("run/other.sock") == 0o666)
        #expect(try mode("run/admin/control.sock") == 0o600)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    /// The control socket's plain path gets the default mode too.
    @Test func theControlSocketIsOwnerAndGroupOnlyByDefault() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig,
                                       launcher: ["/bin/sh", "-c", "umask 000 && exec \"$0\" \"$@\""])
        try daemon.waitForSocket("control.sock")
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.path("control.sock"))
        #expect((attributes[.posixPermissions] as? Int) == 0o660)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func theSocketGetsItsConfiguredModeAndGroup() throws {
        let group = String(cString: getgrgid(getgid())!.pointee.gr_name)
        let daemon = try DaemonHarness(config: """
            streams:
              - name: radio
                source: file:\(Self.music)
                loop: true
                socket: {path: radio.sock, mode: "0640", group: \(group)}
            """)
        try daemon.waitForSocket("radio.sock")
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.path("radio.sock"))
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect((attributes[.groupOwnerAccountID] as? Int).map(UInt32.init) == getgid())
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let folder = try DaemonHarness.makeFolder()
        try Self.leaveStaleSocket(at: folder.appendingPathComponent("radio.sock").path)
        let daemon = try DaemonHarness(config: "streams:\n" + Self.stream("radio"), folder: folder)
        try daemon.waitForSocket("radio.sock")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func aSocketPathHoldingAFileIsLeftAlone() throws {
        let folder = try DaemonHarness.makeFolder()
        let path = folder.appendingPathComponent("radio.sock").path
        try "precious".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonHarness(config: "streams:\n" + Self.stream("radio"), folder: folder)
        #expect(try daemon.waitForExit() == 1)
        #expect(daemon.log.contains("exists and is not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test func aSocketServedByAnotherDaemonIsNotTaken() throws {
        let first = try DaemonHarness(config: "streams:\n" + Self.stream("radio"))
        try first.waitForSocket("radio.sock")
        let second = try DaemonHarness(config: "streams:\n" + Self.stream("radio"), folder: first.folder,
                                       configName: "second.yaml")
        #expect(try second.waitForExit() == 1)
        #expect(second.log.contains("in use by another running process"))
        try first.waitForSocket("radio.sock")
        #expect(first.process.isRunning)
    }

    /// Binds a Unix socket at `path` and exits without removing it, as a crashed daemon would.
    static func leaveStaleSocket(at path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
