import FixtureSupport
import Foundation
import Testing

/// `audiostream subscribe -o -` and `-o /dev/stdout` piped to a player, as the README shows: standard output
/// carries the PCM alone, in order, and the JSON lines go to standard error (or nowhere with `--quiet`).
@Suite(.serialized) struct SubscribeOutputTests {
    /// Runs `audiostream subscribe SOCKET --kinds pcm ARGUMENTS | cat > FILE` through bash (its status with
    /// pipefail), so standard output is a pipe as it is for `| aplay`.
    final class PipedSubscriber {
        let process = Process()
        let payloadFile: URL
        let errorsFile: URL

        init(socket: String, folder: URL, name: String, arguments: [String], reader: String = "cat") throws {
            payloadFile = folder.appendingPathComponent("\(name).pcm")
            errorsFile = folder.appendingPathComponent("\(name).err")
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = ([DaemonHarness.binary("audiostream").path, "subscribe", socket, "--kinds", "pcm"] + arguments)
                .map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-c", "set -o pipefail; \(quoted) 2>'\(errorsFile.path)' | \(reader) >'\(payloadFile.path)'"]
            try process.run()
        }

        func finish() -> (status: Int32, payload: [UInt8], errors: String) {
            process.waitUntilExit()
            return (process.terminationStatus, [UInt8]((try? Data(contentsOf: payloadFile)) ?? Data()),
                    (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "")
        }
    }

    @Test func standardOutputCarriesOnlyThePCM() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        let socket = daemon.path("radio.sock")
        let dash = try PipedSubscriber(socket: socket, folder: daemon.folder, name: "dash", arguments: ["-o", "-"])
        let device = try PipedSubscriber(socket: socket, folder: daemon.folder, name: "device",
                                         arguments: ["-o", "/dev/stdout"])
        let quiet = try PipedSubscriber(socket: socket, folder: daemon.folder, name: "quiet",
                                        arguments: ["-o", "/dev/stdout", "--quiet"])
        try daemon.waitUntil("every subscriber to join") { try daemon.subscriberCount("radio") == 3 }
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()

        let expectedMD5 = try #require(fixture.facts?["mpg123S16Md5"] as? String)
        for subscriber in [dash, device, quiet] {
            let result = subscriber.finish()
            #expect(result.status == 0, "\(result.errors)")
            // The PCM messages' payloads in order are mpg123's decode, so any JSON line among them shows.
            #expect(try md5(result.payload) == expectedMD5)
        }
        for subscriber in [dash, device] {
            let events = subscriber.finish().errors.split(separator: "\n").compactMap { DaemonStdinTests.object(String($0)) }
            let frames = events.filter { $0["event"] as? String == "pcm" }.reduce(0) { $0 + ($1["frames"] as! Int) }
            #expect(frames == fixture.facts?["mpg123Samples"] as? Int)
            #expect(events.last?["event"] as? String == "end")
        }
        #expect(quiet.finish().errors.isEmpty)
    }

    /// A player that goes away (`| head`) ends the subscriber quietly, with status 0.
    @Test func aClosedPipeEndsTheSubscriberQuietly() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        // Its PCM, 264,600 bytes, is far over a pipe's 64 KiB: writes after head leaves find the pipe closed.
        let head = try PipedSubscriber(socket: daemon.path("radio.sock"), folder: daemon.folder, name: "head",
                                       arguments: ["-o", "-", "--quiet"], reader: "head -c 1")
        try daemon.waitUntil("the subscriber to join") { try daemon.subscriberCount("radio") == 1 }
        daemon.feed(Data(fixture.bytes))
        try daemon.closeInput()
        let result = head.finish()
        #expect(result.status == 0)
        #expect(result.payload.count == 1)
        #expect(result.errors.isEmpty)
    }
}
