import FixtureSupport
import Foundation
import Testing

/// Debian's DarkIce as a live DJ: its `SOURCE` head ends its lines with bare LFs, which Icecast accepts, and was
/// refused with a 400. It reads a sound card; here ALSA's `file` plugin over its `null` device stands for one,
/// capturing a raw PCM file (`~/.asoundrc` in a home of the test's own), so it runs without sound hardware. What it
/// sends reaches a subscriber packet for packet as ffprobe cuts DarkIce's own copy of the stream
/// (`localDumpFile`).
@Suite struct DarkIceTests {
    @Test func darkIceGoesOnTheAirAndItsStreamReachesASubscriberWhole() throws {
        let (daemon, port) = try PushSourceTests.daemon()
        let folder = daemon.folder
        // Three seconds of a tone, as the sound card would give it: raw 16-bit stereo at 44.1 kHz.
        let pcm = folder.appendingPathComponent("input.raw")
        let made = try ToolProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
                                                  "-ac", "2", "-ar", "44100", "-f", "s16le", pcm.path],
                                       folder: folder, name: "pcm")
        try #require(made.status == 0, "\(made.errors)")
        try """
            pcm.recorded {
                type file
                slave.pcm "null"
                file "/dev/null"
                infile "\(pcm.path)"
            }
            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let dump = folder.appendingPathComponent("darkice-sent.mp3")
        let config = folder.appendingPathComponent("darkice.cfg")
        try """
            [general]
            duration = 2
            bufferSecs = 1
            reconnect = no
            realtime = no

            [input]
            device = recorded
            sampleRate = 44100
            bitsPerSample = 16
            channel = 2

            [icecast2-0]
            bitrateMode = cbr
            format = mp3
            bitrate = 128
            server = 127.0.0.1
            port = \(port)
            password = \(PushSourceTests.password)
            mountPoint = live
            name = DarkIce trial
            genre = Live
            localDumpFile = \(dump.path)
            # DarkIce skips a last line without its line feed.

            """.write(to: config, atomically: true, encoding: .utf8)
        let subscriber = try daemon.subscribe("live", kinds: "packets,metadata")

        let darkIce = try ToolProcess.run("env", ["HOME=\(folder.path)", "darkice", "-v", "3", "-c", config.path],
                                          folder: folder, name: "darkice")
        let said = String(decoding: darkIce.output, as: UTF8.self) + darkIce.errors
        try #require(darkIce.status == 0 && FileManager.default.fileExists(atPath: dump.path), "\(said)")
        try daemon.waitUntil("DarkIce to leave") {
            try daemon.streamStatus("live")?["reconnects"] as? Int == 0
                && daemon.streamStatus("live")?["connected"] as? Bool == false
                && daemon.log.contains("source client gone")
        }
        let packets = try HTTPStreamCheck.ffprobePackets(dump, folder: folder)
        let result = try PushSourceTests.finish(subscriber, of: daemon)
        #expect(packets.count > 50, "DarkIce sent \(packets.count) packets")
        #expect(result.output == packets.reduce(Data(), +), "the subscriber's packets are not those DarkIce sent")
        let station = result.events.first { $0["source"] as? String == "http" }
        #expect(station?["name"] as? String == "DarkIce trial")
        #expect(station?["genre"] as? String == "Live")
        #expect(PushSourceTests.sourceStates(result.events) == ["connected", "lost"])
    }
}
