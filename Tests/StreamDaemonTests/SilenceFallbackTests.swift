import FixtureSupport
import Foundation
import Testing

/// Dead air, end to end: an ffmpeg station whose sound stops (digital silence, or noise at -60 dBFS) while its
/// connection and its frames go on. The fallback, a looped MP3 at 48 kHz, covers it, so whose packets are whose
/// shows in the sample rate announced before them; the station (44.1 kHz) hands back once its sound returns.
@Suite struct SilenceFallbackTests {
    static let rule = (after: 2.0, back: 1.0)
    /// The station's quiet stretch, in seconds of its audio.
    static let quiet = (start: 4.0, end: 12.0)

    /// ffmpeg serving, in real time to one client, a 440 Hz tone that gives way to `quietSample` (an expression
    /// of ffmpeg's in `t`) for the quiet stretch, as 128 kb/s MP3.
    static func station(port: UInt16, folder: URL, quietSample: String) throws -> ToolProcess {
        let sample = "if(between(t,\(quiet.start),\(quiet.end)),\(quietSample),0.3*sin(2*PI*440*t))"
        return try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi",
            "-i", "aevalsrc=exprs='\(sample)|\(sample)':s=44100:d=24",
            "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", "-content_type", "audio/mpeg",
            "-listen", "1", "http://127.0.0.1:\(port)/live",
        ], folder: folder, name: "station")
    }

    @Test func digitalSilenceIsCoveredByTheFallback() throws {
        try coverAndHandBack(quietSample: "0")
    }

    /// Uniform noise of peak 0.001, -60 dBFS: quiet, not silent, and under the rule's -50.
    @Test func quietNoiseIsCoveredByTheFallback() throws {
        try coverAndHandBack(quietSample: "0.001*(2*random(0)-1)")
    }

    /// The fallback takes the air within `after` + 1 s of the station's silence, and the station gets it back
    /// `back` s after its sound returns: measured in seconds of audio on the air, each side's packets counted at
    /// its own rate. A curl listener stays connected throughout; the events are `silent`, `fallback`, `restored`.
    func coverAndHandBack(quietSample: String) throws {
        let folder = try DaemonHarness.makeFolder()
        let stationPort = try FreePort.pick()
        let station = try Self.station(port: stationPort, folder: folder, quietSample: quietSample)
        defer { station.stop(timeout: 0) }
        try FallbackSourceTests.waitUntilListening(port: stationPort)
        let port = try FreePort.pick()
        let daemon = try DaemonHarness(config: """
            control: control.sock
            metrics: metrics.sock
            http: {listen: "127.0.0.1:\(port)", deadAirTimeout: 1}
            streams:
              - name: radio
                source: http://127.0.0.1:\(stationPort)/live
                socket: radio.sock
                queueSeconds: 60
                silence: {below: -50, after: \(Self.rule.after), back: \(Self.rule.back)}
                fallback: {source: "file:\(FallbackSourceTests.fallbackFile)", loop: true}
            """, folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties,metadata")
        try daemon.waitUntil("the station's packets") {
            subscriber.events.count { $0["event"] as? String == "packet" } > 20
        }
        let (listener, heard) = try FallbackSourceTests.listen(port: port, folder: folder)
        defer { listener.stop(timeout: 0) }

        try daemon.waitUntil("the fallback to cover the silence", timeout: 15) {
            FallbackSourceTests.states(subscriber.events).contains("fallback")
        }
        let status = try #require(try daemon.streamStatus("radio"))
        #expect(status["silent"] as? Bool == true)
        #expect(status["onAir"] as? String == "fallback")
        try FallbackSourceTests.waitUntilBack(daemon, subscriber, heard: heard, timeout: 20)
        #expect(listener.process.isRunning)
        #expect(try daemon.streamStatus("radio")?["silent"] as? Bool == false)
        #expect(try daemon.streamStatus("radio")?["onAir"] as? String == "main")
        let events = subscriber.events
        #expect(FallbackSourceTests.states(events) == ["connected", "silent", "fallback", "restored"], "\(daemon.log)")

        // Seconds of audio in each run of packets at one rate: the station's, the fallback's, the station's again.
        var runs: [(rate: Int, seconds: Double)] = []
        var rate = 0
        for event in events {
            if event["id"] as? String == "dfmt", let value = event["value"] as? [String: Any] {
                rate = value["sampleRate"] as? Int ?? -1
            } else if event["event"] as? String == "packet", let frames = event["frames"] as? Int {
                if runs.last?.rate != rate { runs.append((rate, 0)) }
                runs[runs.count - 1].seconds += Double(frames) / Double(rate)
            }
        }
        #expect(runs.map(\.rate) == [44100, 48000, 44100], "\(runs)")
        guard runs.count == 3 else { return }
        let covered = runs[0].seconds
        #expect(covered >= Self.quiet.start + Self.rule.after && covered <= Self.quiet.start + Self.rule.after + 1,
                "the station played \(covered) s before the fallback")
        let handedBack = runs[0].seconds + runs[1].seconds
        #expect(handedBack >= Self.quiet.end + Self.rule.back - 0.5 && handedBack <= Self.quiet.end + Self.rule.back + 1,
                "the station came back after \(handedBack) s")
        let metrics = MetricsTests.series(try MetricsTests.fetch(socket: daemon.path("metrics.sock")))
        let silence = try #require(metrics[#"audiostream_silence_seconds_total{stream="radio"}"#])
        #expect(silence >= Self.rule.after && silence <= Self.quiet.end - Self.quiet.start, "\(silence) s of silence")
    }
}
