import FixtureSupport
import Foundation
import Testing

/// A stream's loudness measured on the air (`monitor: {loudness: true}`), against ffmpeg's `ebur128` filter on
/// the same file: pink noise at two levels, encoded as MP3 by ffmpeg in the test, decoded by each side its own
/// way (libmpg123 here, ffmpeg's decoder there).
@Suite struct LoudnessMonitorTests {
    /// 12 s of stereo pink noise, its last 6 s 10.5 dB quieter: a loudness range to measure, and a gate to pass.
    static func makeNoise(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("noise.mp3").path
        let made = try ToolProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi",
            "-i", "anoisesrc=color=pink:seed=7:amplitude=0.2:duration=12:sample_rate=44100",
            "-af", "volume='if(lt(t,6),1,0.3)':eval=frame", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", path,
        ], folder: folder, name: "encode")
        #expect(made.status == 0, "\(made.errors)")
        return path
    }

    /// ffmpeg's figures at the end of `path`: the last frame's metadata of its `ebur128` filter, peaks linear.
    static func ffmpegFigures(of path: String, folder: URL) throws -> [String: Double] {
        let measured = folder.appendingPathComponent("ebur128.txt").path
        let run = try ToolProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", path,
            "-af", "ebur128=metadata=1:peak=true,ametadata=print:file=\(measured)", "-f", "null", "-",
        ], folder: folder, name: "ebur128")
        #expect(run.status == 0, "\(run.errors)")
        var figures: [String: Double] = [:]
        for line in try String(contentsOfFile: measured, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        return figures
    }

    /// The last `levels` event, sent as the stream ends, reads what ffmpeg reads of the whole file: integrated
    /// loudness within 0.1 LU (EBU Tech 3341's tolerance), loudness range within 1 LU (Tech 3342's), each
    /// channel's true peak within Tech 3341's +0.2/-0.4 dB, and the short-term loudness of the last 3 s within
    /// 0.1 LU.
    @Test func theLastLevelsReadWhatFFmpegReads() throws {
        let folder = try DaemonHarness.makeFolder()
        let file = try Self.makeNoise(in: folder)
        let expected = try Self.ffmpegFigures(of: file, folder: folder)
        let daemon = try DaemonHarness(config: """
            control: control.sock
            streams:
              - name: radio
                source: "file:\(file)"
                pace: 4
                socket: radio.sock
                queueSeconds: 60
                monitor: {loudness: true}
            """, folder: folder)
        let subscriber = try daemon.subscribe("radio", kinds: "packets,levels")
        let (status, lines, _, errors) = subscriber.finish()
        #expect(status == 0, "\(errors)")
        let levels = lines.compactMap(DaemonStdinTests.object).filter { $0["event"] as? String == "levels" }
        // 12 s of audio at four times real time: 3 s, ten events a second at most.
        #expect(levels.count >= 10 && levels.count <= 32, "\(levels.count) levels events")
        let last = try #require(levels.last)
        let integrated = try #require(last["integrated"] as? Double)
        let range = try #require(last["range"] as? Double)
        let shortTerm = try #require(last["shortTerm"] as? Double)
        let peaks = try #require(last["truePeak"] as? [Double])
        #expect(abs(integrated - expected["lavfi.r128.I", default: .nan]) <= 0.1, "\(last) against \(expected)")
        #expect(abs(range - expected["lavfi.r128.LRA", default: .nan]) <= 1, "\(last) against \(expected)")
        #expect(abs(shortTerm - expected["lavfi.r128.S", default: .nan]) <= 0.1, "\(last) against \(expected)")
        #expect(peaks.count == 2)
        for (channel, peak) in peaks.enumerated() {
            let reference = 20 * log10(expected["lavfi.r128.true_peaks_ch\(channel)", default: .nan])
            #expect(peak - reference <= 0.2 && peak - reference >= -0.4, "channel \(channel): \(peak) against \(reference)")
        }
        #expect(last["silent"] as? Bool == false)
    }

    /// The figures reach everywhere an operator looks, the same in each: `status` (JSON and text), Icecast's
    /// `/status-json.xsl` (as extra keys), the status page, and the Prometheus gauges; `levels` events come at
    /// most ten a second, and only to subscribers that ask for them.
    @Test func theFiguresAreInStatusMetricsAndTheStatusPage() throws {
        let port = try FreePort.pick()
        let file = Fixtures.named("l3-cbr128-joint.mp3").file.path
        let daemon = try DaemonHarness(config: """
            control: control.sock
            metrics: metrics.sock
            http: {listen: "127.0.0.1:\(port)"}
            streams:
              - name: radio
                source: "file:\(file)"
                loop: true
                socket: radio.sock
                monitor: {loudness: true}
            """)
        let levels = try daemon.subscribe("radio", kinds: "packets,levels")
        let others = try daemon.subscribe("radio", kinds: "packets,metadata,properties")
        let started = Date()
        try daemon.waitUntil("three seconds of levels") {
            levels.events.count { $0["event"] as? String == "levels" } >= 25
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(Double(levels.events.count { $0["event"] as? String == "levels" }) <= elapsed * 10 + 2)
        #expect(!others.events.contains { $0["event"] as? String == "levels" })

        let status = try #require(try daemon.streamStatus("radio"))
        let loudness = try #require(status["loudness"] as? [String: Any], "\(status)")
        let integrated = try #require(loudness["integrated"] as? Double)
        #expect(integrated < 0 && integrated > -40)
        #expect((loudness["truePeak"] as? [Double])?.count == 2)
        #expect(status["silent"] == nil)

        let text = try ToolProcess.run(DaemonHarness.binary("audiostream").path, ["status", daemon.path("control.sock")],
                                       folder: daemon.folder, name: "status")
        #expect(String(decoding: text.output, as: UTF8.self).contains(" LUFS (integrated -"), "\(text)")

        let icestats = try IcecastServer.get(port: port, path: "/status-json.xsl")
        let json = try #require(try JSONSerialization.jsonObject(with: icestats.body) as? [String: Any])
        let source = try #require((json["icestats"] as? [String: Any])?["source"] as? [String: Any])
        for key in ["loudness_integrated", "loudness_momentary", "loudness_range", "loudness_shortterm"] {
            #expect(source[key] is Double, "\(key) in \(source)")
        }
        #expect((source["true_peak"] as? [Double])?.count == 2)
        let page = String(decoding: try IcecastServer.get(port: port, path: "/").body, as: UTF8.self)
        #expect(page.contains(" LUFS"), "\(page)")

        let metrics = MetricsTests.series(try MetricsTests.fetch(socket: daemon.path("metrics.sock")))
        for name in ["loudness_momentary_lufs", "loudness_shortterm_lufs", "loudness_integrated_lufs", "loudness_range_lu"] {
            #expect(metrics["audiostream_\(name){stream=\"radio\"}"] != nil, "\(name)")
        }
        let gauge = try #require(metrics[#"audiostream_loudness_integrated_lufs{stream="radio"}"#])
        #expect(abs(gauge - integrated) < 0.5)
        for channel in 0..<2 {
            #expect(metrics["audiostream_true_peak_dbtp{stream=\"radio\",channel=\"\(channel)\"}"] != nil)
        }
    }
}
