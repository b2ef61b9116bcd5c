import FixtureSupport
import Foundation
import Testing

/// Every codec reaches HTTP listeners as the bytes players expect of it, whatever the source's container: ADTS
/// frames rebuilt around AAC units, Ogg pages of our own around Opus and Vorbis packets (with their headers
/// first, and each link of a chain), `fLaC` and its metadata before FLAC frames. ffprobe reads what curl got.
@Suite(.serialized) struct HTTPMountFramingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let contentType: String
        let codec: String
        var testDescription: String { file }

        var url: URL { Fixtures.directory.appendingPathComponent(file) }

        /// The sizes of the source's packets: as the fixture script recorded them for Ogg (ffprobe leaves out a
        /// last packet that the final granule position trims whole, which a listener's stream of our own pages
        /// keeps), else as ffprobe reads the file.
        func sourceSizes(folder: URL) throws -> [Int] {
            guard file.hasPrefix("ogg/") else { return try HTTPMountFramingTests.probe(url, folder: folder).sizes }
            let stem = (file as NSString).deletingPathExtension
            let csv = try String(contentsOf: Fixtures.expected.appendingPathComponent(stem + ".packets.csv"),
                                 encoding: .utf8)
            return csv.split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[1])! }
        }
    }

    static let cases = [
        Case(file: "adts-lc-44k-stereo.aac", contentType: "audio/aac", codec: "aac"),
        Case(file: "ogg/ogg-opus-64k-stereo.opus", contentType: "audio/ogg", codec: "opus"),
        Case(file: "ogg/ogg-opus-chained.opus", contentType: "audio/ogg", codec: "opus"),
        Case(file: "ogg/ogg-vorbis-q0-44k-stereo.ogg", contentType: "audio/ogg", codec: "vorbis"),
        Case(file: "ogg/ogg-flac-44k-stereo.oga", contentType: "audio/flac", codec: "flac"),
        Case(file: "flac-44k-stereo.flac", contentType: "audio/flac", codec: "flac"),
    ]

    @Test(arguments: cases)
    func aListenerGetsAStreamFFprobeReadsPacketForPacket(_ test: Case) throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: stdin
              socket: radio.sock
              queueSeconds: 60
              historySeconds: 60
            """)
        let bytes = try Data(contentsOf: test.url)
        try daemon.waitUntil("the HTTP server") { (try? HTTPListenerTests.mountStatus(port, "radio")) != nil }
        // Fed until the mount serves: an Ogg page's packets come out once the next page shows it is not the last.
        var fed = 0
        while try !(HTTPListenerTests.mountStatus(port, "radio")?["contentType"] is String), fed < bytes.count / 2 {
            daemon.feed(bytes[fed..<fed + 1024])
            fed += 1024
            Thread.sleep(forTimeInterval: 0.05)
        }
        try daemon.waitForMount(port: port, "radio")
        let folder = daemon.folder
        let body = folder.appendingPathComponent("listener.body")
        // Asking for ICY metadata: a format that carries its own titles gets none.
        let curl = try ToolProcess("curl", ["-sS", "-H", "Icy-MetaData: 1", "-D", "-", "-o", body.path,
                                            "http://127.0.0.1:\(port)/radio"], folder: folder, name: "curl")
        try daemon.waitUntil("the listener") {
            try HTTPListenerTests.mountStatus(port, "radio")?["listeners"] as? Int == 1
        }
        daemon.feed(bytes.dropFirst(fed))
        try daemon.closeInput()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let result = curl.finish()
        #expect(result.status == 0, "\(result.errors)")
        let headers = HTTPStreamCheck.headers(result.output)
        #expect(headers["content-type"] == test.contentType)
        #expect((headers["icy-metaint"] != nil) == (test.contentType != "audio/ogg"))

        // The audio alone, without the ICY blocks of a format that takes them.
        let audio = folder.appendingPathComponent("listener.audio")
        let metaint = headers["icy-metaint"].flatMap { Int($0) }
        try HTTPStreamCheck.splitICY(try Data(contentsOf: body), metaint: metaint ?? .max).audio.write(to: audio)
        let received = try Self.probe(audio, folder: folder)
        let source = try test.sourceSizes(folder: folder)
        #expect(received.codec == test.codec, "\(result.errors)")
        // At least what was fed once the listener had joined.
        #expect(received.sizes.count >= source.count / 2)
        // What the listener got is the source's packets from one of them on: none lost, none altered in size.
        #expect(source.ends(with: received.sizes), "\(received.sizes.suffix(8)) vs \(source.suffix(8))")
        if test.codec == "aac" {
            // The rebuilt ADTS frames are ffmpeg's own, byte for byte.
            #expect(HTTPStreamCheck.isPacketSuffix(try Data(contentsOf: audio),
                                                   of: try HTTPStreamCheck.ffprobePackets(test.url, folder: folder)))
        }
    }

    /// A player tuning in before the station's first packet gets the stream from its start, not a 503; one whose
    /// stream ends unservable gets its 503 then, not after the wait.
    @Test func aListenerBeforeTheFirstPacketWaitsForTheAudio() throws {
        let (daemon, port) = try DaemonHarness.stdinRadioWithHTTP()
        let folder = daemon.folder
        let body = folder.appendingPathComponent("early.body")
        let curl = try ToolProcess("curl", ["-sS", "-D", "-", "-o", body.path, "http://127.0.0.1:\(port)/radio"],
                                   folder: folder, name: "early")
        Thread.sleep(forTimeInterval: 0.5)
        let file = Fixtures.directory.appendingPathComponent("adts-lc-44k-stereo.aac")
        daemon.feed(try Data(contentsOf: file))
        try daemon.closeInput()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        let result = curl.finish()
        #expect(HTTPStreamCheck.headers(result.output)["status"] == "HTTP/1.1 200 OK")
        let frames = try HTTPStreamCheck.ffprobePackets(file, folder: folder)
        #expect(try Data(contentsOf: body) == frames.reduce(Data(), +), "every frame, from the first")

        let (unservable, unservablePort) = try DaemonHarness.stdinRadioWithHTTP()
        let reason = unservable.folder.appendingPathComponent("refused.body")
        let refused = try ToolProcess("curl", ["-sS", "-D", "-", "-o", reason.path,
                                               "http://127.0.0.1:\(unservablePort)/radio"],
                                      folder: unservable.folder, name: "refused")
        Thread.sleep(forTimeInterval: 0.5)
        unservable.feed(Data(String(repeating: "not audio at all ", count: 8000).utf8))
        try unservable.closeInput()
        let answer = refused.finish()
        #expect(HTTPStreamCheck.headers(answer.output)["status"] == "HTTP/1.1 503 Service Unavailable")
        // Answered as the stream ended, not when the wait ran out.
        #expect(try String(contentsOf: reason, encoding: .utf8).contains("ended without audio"))
        _ = try unservable.waitForExit()
    }

    /// A listener of a chained Ogg stream from its start gets valid Ogg, as strict readers (Xiph's own, then
    /// ffprobe) judge it: each link ended by its end-of-stream page before the next begins, the last one too.
    @Test(arguments: [("ogg/ogg-opus-chained.opus", "opusinfo"), ("ogg/ogg-vorbis-chained-rate.ogg", "ogginfo")])
    func aChainedOggMountIsValidOgg(file: String, reader: String) throws {
        let (daemon, port) = try DaemonHarness.stdinRadioWithHTTP()
        let folder = daemon.folder
        let body = folder.appendingPathComponent("chain.ogg")
        let curl = try ToolProcess("curl", ["-sS", "-o", body.path, "http://127.0.0.1:\(port)/radio"],
                                   folder: folder, name: "curl")
        try daemon.waitUntil("the listener to wait for the audio") {
            try daemon.streamStatus("radio")?["waitingListeners"] as? Int == 1
        }
        daemon.feed(try Data(contentsOf: Fixtures.directory.appendingPathComponent(file)))
        try daemon.closeInput()
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(curl.finish().status == 0)

        let strict = try ToolProcess.run(reader, [body.path], folder: folder, name: reader)
        let report = String(decoding: strict.output, as: UTF8.self) + strict.errors
        #expect(report.components(separatedBy: "New logical stream").count - 1 == 2, "\(report)")
        #expect(!report.contains("WARNING") && !report.contains("ERROR"), "\(report)")
        let ffprobe = try ToolProcess.run("ffprobe", ["-v", "error", body.path], folder: folder, name: "ffprobe")
        #expect(ffprobe.output.isEmpty && ffprobe.errors.isEmpty, "\(ffprobe.errors)")
    }

    /// The audio codec ffprobe finds and the sizes of its packets.
    static func probe(_ file: URL, folder: URL) throws -> (codec: String?, sizes: [Int]) {
        let streams = try ToolProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file.path,
        ], folder: folder, name: "ffprobe-codec")
        let packets = try ToolProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", file.path,
        ], folder: folder, name: "ffprobe-sizes")
        let codec = String(decoding: streams.output, as: UTF8.self).split(separator: "\n").first.map(String.init)
        // A packet with side data (Opus skip samples) gets a trailing comma.
        let sizes = String(decoding: packets.output, as: UTF8.self).split(separator: "\n")
            .compactMap { $0.split(separator: ",").first.flatMap { Int($0) } }
        return (codec, sizes)
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        !suffix.isEmpty && count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
