import FixtureSupport
import Foundation
import Testing

/// examples/subscribe.py, the protocol read with nothing but Python's standard library, against the real daemon:
/// it must print ffprobe's packets, in order, and stop at the end event.
@Suite struct PythonExampleTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/subscribe.py")

    @Test(arguments: ["l3-vbr-v2.mp3", "tags-id3v24-and-v1-and-ape.mp3"])
    func theScriptPrintsEveryPacketThenTheEnd(fixture name: String) throws {
        let fixture = Fixtures.named(name)
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        let script = try PythonSubscriber(socket: daemon.path("radio.sock"), folder: daemon.folder)
        try daemon.waitUntil("the script to subscribe") { try daemon.subscriberCount("radio") == 1 }
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()

        let result = try script.finish(daemon)
        #expect(result.status == 0)
        #expect(result.lines.last == #"{"event":"end","reason":"sourceEnded"}"#)
        let expected = fixture.expectedPackets.map { packet in
            let frames = Self.framesPerPacket(header: fixture.bytes[Int(packet.offset) + 1])
            return #"{"event":"packet","offset":\#(packet.offset),"size":\#(packet.size),"frames":\#(frames)}"#
        }
        #expect(result.lines.filter { $0.hasPrefix(#"{"event":"packet","#) } == expected)
        // Every other line is an event as the daemon sent it: JSON naming its event.
        let events = result.lines.filter { !$0.hasPrefix(#"{"event":"packet","#) }.map(Self.eventName)
        #expect(!events.contains(nil))
        #expect(events.contains("property"))
    }

    @Test func aRefusedHelloEndsTheScriptWithStatus1() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        let script = try PythonSubscriber(socket: daemon.path("radio.sock"), kinds: "packets,video",
                                          folder: daemon.folder)
        let result = try script.finish(daemon)
        #expect(result.status == 1)
        #expect(result.lines.isEmpty)
        #expect(result.errors.contains("video"))
    }

    /// PCM frames in an MPEG audio packet, from the second byte of its header (ISO 11172-3, 13818-3): Layer I
    /// holds 384, Layer II 1152, Layer III 1152 in MPEG-1 and 576 in MPEG-2 and 2.5.
    static func framesPerPacket(header byte: UInt8) -> Int {
        let isMPEG1 = byte >> 3 & 0b11 == 0b11
        switch byte >> 1 & 0b11 {
        case 0b11: return 384
        case 0b10: return 1152
        default: return isMPEG1 ? 1152 : 576
        }
    }

    static func eventName(_ line: String) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["event"] as? String
    }
}

/// `python3 examples/subscribe.py SOCKET [KINDS]`, its output kept in files so a full pipe never blocks it.
private final class PythonSubscriber {
    let process = Process()
    let outputFile: URL
    let errorFile: URL

    init(socket: String, kinds: String? = nil, folder: URL) throws {
        outputFile = folder.appendingPathComponent("python.jsonl")
        errorFile = folder.appendingPathComponent("python.err")
        for file in [outputFile, errorFile] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PythonExampleTests.script.path, socket] + (kinds.map { [$0] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Waits for the script to exit, reporting the daemon's log if it does not.
    /// - Returns: its exit status, the lines it printed and what it said on standard error.
    func finish(_ daemon: DaemonHarness) throws -> (status: Int32, lines: [String], errors: String) {
        try daemon.waitUntil("the script to exit", timeout: 60) { !process.isRunning }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, output.split(separator: "\n").map(String.init), errors)
    }
}
