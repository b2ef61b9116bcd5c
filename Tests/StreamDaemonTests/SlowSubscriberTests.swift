import AudioStreamProtocol
import FixtureSupport
import Foundation
import StreamDaemon
import Testing

/// Subscribers that stop reading lose whole packets, are told, and are dropped if they stay behind, while
/// the others get every packet: a looped fixture at 20 times real time makes the backlog grow fast.
@Suite struct SlowSubscriberTests {
    static let fixture = Fixtures.named("l3-cbr128-joint.mp3")
    static let queueSeconds = 1.0

    @Test func aStalledSubscriberNeverHoldsUpTheOthers() throws {
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: fast
                source: file:\(Self.fixture.file.path)
                pace: 20
                loop: true
                socket: fast.sock
                queueSeconds: \(Self.queueSeconds)
                disconnectAfter: 3
            """)
        try daemon.waitForSocket("fast.sock")
        let socket = daemon.path("fast.sock")
        let steady = try Self.subscribe(socket)
        let resumed = try Self.subscribe(socket)
        let stalled = try Self.subscribe(socket)
        try daemon.waitUntil("three subscribers") { try daemon.subscriberCount("fast") == 3 }

        let steadyReader = Reader(steady, for: 6)
        // The stalled ones fall behind: their queues stay within the limit however long they stall.
        usleep(2_000_000)
        let lags = try Self.subscriberStatus(daemon).compactMap { $0["lagSeconds"] as? Double }
        #expect(lags.count == 3 && lags.allSatisfy { $0 <= Self.queueSeconds })
        let resumedMessages = Reader(resumed, for: 2).messages()

        // The one that resumed in time was told what it lost, then got whole packets again.
        let overflow = resumedMessages.compactMap(Self.event).first { $0["reason"] as? String == "overflow" }
        #expect((overflow?["droppedPackets"] as? Int ?? 0) > 0)
        #expect(Self.packetsFollowTheFile(resumedMessages.drop { Self.event($0)?["reason"] as? String != "overflow" }))

        // The one that never resumed was disconnected; what was in flight ends without an end event.
        try daemon.waitUntil("the stalled subscriber to be dropped") { try daemon.subscriberCount("fast") == 2 }
        #expect(try daemon.streamStatus("fast")?["slowDisconnects"] as? Int == 1)
        // Closing drops what its socket had not taken: the last message may be cut short.
        var stalledEvents: [[String: Any]] = []
        do {
            while let message = try stalled.receive() { stalledEvents += Self.event(message).map { [$0] } ?? [] }
        } catch WireError.truncated {}
        #expect(!stalledEvents.contains { $0["event"] as? String == "end" })

        // The steady one got every packet of every loop, in order, and was never told of an overflow.
        let steadyMessages = steadyReader.messages()
        #expect(!steadyMessages.contains { Self.event($0)?["reason"] as? String == "overflow" })
        #expect(steadyMessages.count > 1000)
        #expect(Self.packetsFollowTheFile(steadyMessages[...]))
        #expect(Self.residentMegabytes(of: daemon.process.processIdentifier) < 100)
    }

    /// Whether the packets, with offsets taken modulo the file's size, follow the file's ffprobe packet list
    /// cyclically without a gap: the loop repeats the file, so every pass must bring every packet.
    static func packetsFollowTheFile(_ messages: ArraySlice<WireMessage>) -> Bool {
        let expected = fixture.expectedPackets.map(\.offset)
        let fileSize = Int64(fixture.bytes.count)
        let offsets = messages.compactMap { message -> Int64? in
            guard case .packet(let packet) = message else { return nil }
            return packet.offset % fileSize
        }
        guard let first = offsets.first, let start = expected.firstIndex(of: first) else { return false }
        return offsets.enumerated().allSatisfy { index, offset in expected[(start + index) % expected.count] == offset }
    }

    static func subscribe(_ socket: String) throws -> WireClient {
        let client = try WireClient(path: socket)
        try client.send(.hello, json: Hello(kinds: [.packets]).json)
        return client
    }

    static func subscriberStatus(_ daemon: DaemonHarness) throws -> [[String: Any]] {
        try daemon.streamStatus("fast")?["subscribers"] as? [[String: Any]] ?? []
    }

    static func event(_ message: WireMessage) -> [String: Any]? {
        guard case .json(.event, let text) = message else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    static func residentMegabytes(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? Int.max / 1024) / 1024
    }
}

/// Reads a client's messages on a thread of its own for some seconds.
private final class Reader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var received: [WireMessage] = []

    init(_ client: WireClient, for seconds: Double) {
        let unchecked = UncheckedClient(client: client)
        Thread { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, let message = try? unchecked.client.receive() { received.append(message) }
            done.signal()
        }.start()
    }

    /// The messages read, once the time is up.
    func messages() -> [WireMessage] {
        done.wait()
        return received
    }
}

private struct UncheckedClient: @unchecked Sendable {
    let client: WireClient
}
