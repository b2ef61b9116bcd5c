import FixtureSupport
import Foundation
import Testing

/// The daemon as an HLS origin, read by real clients: ffmpeg's HLS demuxer and GStreamer's `hlsdemux2` play each
/// codec's playlist; blocking playlist reloads, preload hints, delta updates and the refusals of RFC 8216bis
/// §6.2.5 as curl-like requests see them; a group's multivariant playlist.
@Suite struct HLSOriginTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: String
        var container: String?
        /// Packed audio cannot state the priming that ffmpeg trims from the file: the file's decode follows it.
        var afterPriming = false
        var testDescription: String { fixture + (container.map { " as \($0)" } ?? "") }
    }

    static let cases = [
        Case(fixture: "cbr.mp3", afterPriming: true),
        Case(fixture: "aac.aac"),
        Case(fixture: "aac.aac", container: "fmp4"),
        Case(fixture: "opus.opus"),
        Case(fixture: "flac.flac"),
    ]

    static func fixture(_ name: String) -> String { Fixtures.directory.appendingPathComponent("record/\(name)").path }

    /// A daemon whose stream `song` plays `fixture` once as fast as it parses, and a stream on standard input
    /// that keeps the daemon up once it has: the playlist, ended, stays served.
    static func endedStream(_ test: Case) throws -> (DaemonHarness, UInt16) {
        let container = test.container.map { ", container: \($0)" } ?? ""
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: song
              source: file:\(fixture(test.fixture))
              pace: none
              socket: song.sock
              hls: {segment: 2, part: 0.5, window: 60\(container)}
            - name: keep
              source: stdin
              socket: keep.sock
            """)
        try daemon.waitUntil("the playlist to end") {
            let playlist = try? IcecastServer.get(port: port, path: "/hls/song/live.m3u8")
            return playlist.map { String(decoding: $0.body, as: UTF8.self).contains("#EXT-X-ENDLIST") } ?? false
        }
        return (daemon, port)
    }

    @Test(arguments: cases)
    func ffmpegDecodesEachCodecsPlaylistToTheFile(_ test: Case) throws {
        let (daemon, port) = try Self.endedStream(test)
        let url = "http://127.0.0.1:\(port)/hls/song/live.m3u8"
        let playlist = String(decoding: try IcecastServer.get(port: port, path: "/hls/song/live.m3u8").body, as: UTF8.self)
        let checker = PlaylistChecker(playlist)
        #expect(checker.violations.isEmpty, "\(checker.violations)\n\(playlist)")
        let source = Self.fixture(test.fixture)
        let channels = try FFmpegTool.channels(source)
        let whole = try FFmpegTool.decode(source)
        let streamed = try FFmpegTool.decode(url)
        let stated = checker.segments.reduce(0) { $0 + $1.duration } * Double(try FFmpegTool.sampleRate(source))
        #expect(abs(stated - Double(streamed.count / channels)) < 0.5, "stated \(stated)")
        let start = test.afterPriming
            ? try #require((0...4096).first { streamed[$0 * channels..<$0 * channels + 64] == whole[0..<64] }) * channels
            : 0
        try #require(streamed.count >= start + whole.count, "\(streamed.count) samples of \(whole.count)")
        #expect(Array(streamed[start..<start + whole.count]) == whole)
        _ = daemon
    }

    @Test(arguments: cases)
    func gstreamerPlaysEachCodecsPlaylistToItsEnd(_ test: Case) throws {
        let (daemon, port) = try Self.endedStream(test)
        let pcm = daemon.folder.appendingPathComponent("decoded.pcm").path
        let result = try FFmpegTool.runToEnd("gst-launch-1.0", [
            "-q", "uridecodebin3", "uri=http://127.0.0.1:\(port)/hls/song/live.m3u8", "!", "audioconvert", "!",
            "audio/x-raw,format=S16LE", "!", "filesink", "location=\(pcm)",
        ])
        #expect(result.status == 0 && !result.errors.contains("ERROR"), "\(result.errors)")
        let source = Self.fixture(test.fixture)
        let frames = (try FileManager.default.attributesOfItem(atPath: pcm)[.size] as? Int ?? 0) / 2
            / (try FFmpegTool.channels(source))
        let decoded = try FFmpegTool.decode(source).count / (try FFmpegTool.channels(source))
        #expect(abs(frames - decoded) < 4096, "GStreamer decoded \(frames) frames of \(decoded)")
    }

    /// §6.2.5.2: a reload naming the hinted part is held until the part exists, then lists it; the hinted
    /// part itself is held too and is the part then listed. A reload too far ahead is 400, a part without its
    /// segment's number 400, a part that left the window 404. Playlists are cached half a part, files for good,
    /// and every answer may be read by a page of another origin.
    @Test func blockingReloadsAndPreloadHints() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: file:\(Self.fixture("cbr.mp3"))
              loop: true
              pace: 4
              socket: live.sock
              hls: {segment: 1, part: 0.25, window: 8}
            """)
        try daemon.waitUntil("segments that left the window") {
            let playlist = try? IcecastServer.get(port: port, path: "/hls/live/live.m3u8")
            return playlist.map { PlaylistChecker(String(decoding: $0.body, as: UTF8.self)).mediaSequence > 1 } ?? false
        }
        let first = try IcecastServer.get(port: port, path: "/hls/live/live.m3u8")
        #expect(first.header("Cache-Control") == "max-age=0")
        #expect(first.header("Access-Control-Allow-Origin") == "*")
        #expect(first.header("Content-Type") == "application/vnd.apple.mpegurl")
        let text = String(decoding: first.body, as: UTF8.self)
        let hint = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("#EXT-X-PRELOAD-HINT:") })
        let hinted = try #require(PlaylistChecker.attributes(String(hint.dropFirst(21)))["URI"])
        // part-MSN.PART.mp3
        let numbers = hinted.split(separator: "-")[1].split(separator: ".").prefix(2).compactMap { Int($0) }
        try #require(numbers.count == 2 && !text.contains("URI=\"\(hinted)\",INDEPENDENT"))

        let held = try IcecastServer.get(port: port, path: "/hls/live/live.m3u8?_HLS_msn=\(numbers[0])&_HLS_part=\(numbers[1])")
        #expect(held.status == 200)
        let reloaded = String(decoding: held.body, as: UTF8.self)
        #expect(reloaded.contains("URI=\"\(hinted)\",INDEPENDENT=YES"), "\(reloaded)")
        #expect(PlaylistChecker(reloaded).violations.isEmpty)

        // The next hint, fetched before it exists.
        let nextHint = try #require(reloaded.components(separatedBy: "\n").first { $0.hasPrefix("#EXT-X-PRELOAD-HINT:") })
        let nextName = try #require(PlaylistChecker.attributes(String(nextHint.dropFirst(21)))["URI"])
        let part = try IcecastServer.get(port: port, path: "/hls/live/\(nextName)")
        #expect(part.status == 200)
        #expect(part.header("Cache-Control") == "max-age=31536000, immutable")
        #expect(part.header("Access-Control-Allow-Origin") == "*")
        let again = try IcecastServer.get(port: port, path: "/hls/live/\(nextName)")
        #expect(again.body == part.body && !part.body.isEmpty)

        #expect(try IcecastServer.get(port: port, path: "/hls/live/live.m3u8?_HLS_part=1").status == 400)
        #expect(try IcecastServer.get(port: port, path: "/hls/live/part-0.0.mp3").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/hls/live/segment-0.mp3").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/hls/live/nothing.mp3").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/hls/nostream/live.m3u8").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/hls/live/x/live.m3u8").status == 404)
        #expect(try IcecastServer.get(port: port, path: "/hls/live").status == 404)
        // On one kept-alive connection, two requests sent at once and one after their answers: each is answered.
        let connection = try RawConnection(port: port)
        let get = "GET /hls/live/\(nextName) HTTP/1.1\r\nHost: a\r\n\r\n"
        connection.send(get + get)
        let pair = connection.readToEnd(timeout: 2)
        connection.send(get)
        let third = connection.readToEnd(timeout: 2)
        let answers = { (bytes: Data) in String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK\r\n").count - 1 }
        #expect(answers(pair.bytes) == 2 && answers(third.bytes) == 1 && !third.closed)
        #expect(pair.bytes.count + third.bytes.count > 3 * part.body.count)

        // A delta update leaves out the segments before the skip boundary, six target durations from the end.
        try daemon.waitUntil("more than six seconds of segments") {
            let playlist = try IcecastServer.get(port: port, path: "/hls/live/live.m3u8")
            return PlaylistChecker(String(decoding: playlist.body, as: UTF8.self)).segments
                .reduce(0) { $0 + $1.duration } > 7.5
        }
        let delta = String(decoding: try IcecastServer.get(port: port, path: "/hls/live/live.m3u8?_HLS_skip=YES").body,
                           as: UTF8.self)
        let deltaChecker = PlaylistChecker(delta)
        #expect(deltaChecker.skipped > 0, "\(delta)")
        #expect(deltaChecker.violations.isEmpty, "\(deltaChecker.violations)")
    }

    /// Once the source has gone quiet: a reload for more than two segments after the last gets 400 (RFC 8216bis
    /// §6.2.5.2), and one for a segment that never comes 503 after three target durations.
    @Test func aReloadTooFarAheadGets400AndOneThatWaitsTooLongGets503() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: stdin
              socket: radio.sock
              hls: {segment: 0.5, part: 0, window: 2}
            """)
        // After its Info frame, the prefix holds 190 whole frames of 1,152 (ffprobe): ten segments of 19 frames,
        // 0 to 9, and not a frame of segment 10. Waiting for segment 9 leaves no packet on its way.
        daemon.feed(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("cbr.mp3"))).prefix(40_000))
        try daemon.waitUntil("segment 9") {
            let playlist = try? IcecastServer.get(port: port, path: "/hls/radio/live.m3u8")
            return playlist.map { PlaylistChecker(String(decoding: $0.body, as: UTF8.self)).segments.last?.sequence == 9 }
                ?? false
        }
        #expect(try IcecastServer.get(port: port, path: "/hls/radio/live.m3u8?_HLS_msn=12").status == 400)
        let answer = try IcecastServer.get(port: port, path: "/hls/radio/live.m3u8?_HLS_msn=11", timeout: 10)
        #expect(answer.status == 503, "\(answer.statusLine)")
    }

    /// `/hls/GROUP/master.m3u8` lists each stream of the group with its peak bit rate and its codec as RFC 6381
    /// names it, and ffmpeg plays from it.
    @Test func aGroupsMultivariantPlaylist() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: high
              source: file:\(Self.fixture("aac.aac"))
              loop: true
              socket: high.sock
              hls: {segment: 1, part: 0, window: 4, group: station}
            - name: low
              source: file:\(Self.fixture("cbr.mp3"))
              loop: true
              socket: low.sock
              hls: {segment: 1, part: 0, window: 4, group: station}
            """)
        try daemon.waitUntil("both streams in the playlist") {
            let master = try? IcecastServer.get(port: port, path: "/hls/station/master.m3u8")
            return master.map { String(decoding: $0.body, as: UTF8.self).components(separatedBy: "#EXT-X-STREAM-INF").count == 3 }
                ?? false
        }
        let master = String(decoding: try IcecastServer.get(port: port, path: "/hls/station/master.m3u8").body, as: UTF8.self)
        // ISO/IEC 14496-3 object type 2 is AAC LC, which ffprobe names; MP3 is object type 34 (RFC 6381 §3.3).
        let profile = try FFmpegTool.streamEntry("profile", of: Self.fixture("aac.aac"))
        #expect(profile == "LC")
        #expect(master.contains("CODECS=\"mp4a.40.2\",AUDIO=\"high\""), "\(master)")
        #expect(master.contains("CODECS=\"mp4a.40.34\",AUDIO=\"low\""), "\(master)")
        for line in master.components(separatedBy: "\n") where line.hasPrefix("#EXT-X-STREAM-INF:") {
            let bandwidth = PlaylistChecker.attributes(String(line.dropFirst(18)))["BANDWIDTH"].flatMap { Int($0) } ?? 0
            #expect(bandwidth > 40_000 && bandwidth < 400_000, "\(line)")
        }
        let probe = try FFmpegTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                                   "http://127.0.0.1:\(port)/hls/station/master.m3u8"])
        #expect(String(decoding: probe.output, as: UTF8.self).contains("aac"))
        _ = daemon
    }

    /// A title set by Icecast's admin call starts a segment that says it as timed ID3 (packed audio: in the tag
    /// that leads it; fmp4: in an `emsg` before its first part's `moof`, at that part's time), which mutagen reads,
    /// and as a date range starting at the segment's date.
    @Test(arguments: [Case(fixture: "cbr.mp3"), Case(fixture: "aac.aac", container: "fmp4")])
    func aTitleSetByTheAdminCallIsTimedMetadata(_ test: Case) throws {
        let container = test.container.map { ", container: \($0)" } ?? ""
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: song
              source: file:\(Self.fixture(test.fixture))
              loop: true
              socket: song.sock
              hls: {segment: 1, part: 0.25, window: 8\(container)}
            """, http: "adminPassword: secret")
        try Self.waitForASegment(daemon, port, "song")
        let call = try ToolProcess.run("curl", [
            "-sS", "--max-time", "20", "-u", "admin:secret",
            "http://127.0.0.1:\(port)/admin/metadata?mount=/song&mode=updinfo&song=The%20Artist%20-%20The%20Song",
        ], folder: daemon.folder, name: "curl-admin")
        #expect(call.status == 0, "\(call.errors)")
        var playlist = ""
        try daemon.waitUntil("the date range") {
            playlist = String(decoding: try IcecastServer.get(port: port, path: "/hls/song/live.m3u8").body, as: UTF8.self)
            return playlist.contains("X-TITLE=\"The Song\"")
        }
        #expect(PlaylistChecker(playlist).violations.isEmpty)
        let lines = playlist.components(separatedBy: "\n")
        let rangeIndex = try #require(lines.firstIndex { $0.hasPrefix("#EXT-X-DATERANGE:") })
        let range = PlaylistChecker.attributes(String(lines[rangeIndex].dropFirst(17)))
        #expect(range["X-ARTIST"] == "The Artist")
        let date = try #require(lines[rangeIndex...].first { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") })
        #expect(range["START-DATE"] == String(date.dropFirst(25)))
        let partLine = try #require(lines[rangeIndex...].first { $0.hasPrefix("#EXT-X-PART:") })
        let part = try #require(PlaylistChecker.attributes(String(partLine.dropFirst(13)))["URI"])
        let bytes = try IcecastServer.get(port: port, path: "/hls/song/\(part)").body
        let tagFile = daemon.folder.appendingPathComponent("tag.id3")
        if test.container == "fmp4" {
            let boxes = Self.boxes([UInt8](bytes))
            try #require(boxes.first?.type == "emsg", "\(boxes.map(\.type))")
            let emsg = boxes[0].body
            #expect(emsg[0] == 1, "emsg version 1")
            let presentationTime = emsg[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            let scheme = emsg[24...].prefix { $0 != 0 }
            #expect(String(decoding: scheme, as: UTF8.self) == "https://aomedia.org/emsg/ID3")
            // ID3 after the scheme's and the empty value's terminators.
            try Data(emsg[(24 + scheme.count + 2)...]).write(to: tagFile)
            let moof = try #require(boxes.first { $0.type == "moof" })
            let traf = try #require(Self.boxes(moof.body).first { $0.type == "traf" })
            let tfdt = try #require(Self.boxes(traf.body).first { $0.type == "tfdt" }).body
            #expect(presentationTime == tfdt[4..<12].reduce(0) { $0 << 8 | UInt64($1) })
        } else {
            try bytes.write(to: tagFile)
        }
        let read = try FFmpegTool.run("python3", ["-c", """
            import sys; from mutagen.id3 import ID3; t = ID3(sys.argv[1]); print(t['TIT2'].text[0]); print(t['TPE1'].text[0])
            """, tagFile.path])
        #expect(String(decoding: read.output, as: UTF8.self) == "The Song\nThe Artist\n")
    }

    /// HLS sessions are counted by their `session` parameter, else by address and user agent, while they asked
    /// within two target durations: in `audiostream status`, `/status-json.xsl`, the status page and the metrics.
    @Test func hlsListenersAreCountedWhereverListenersAre() throws {
        let (port, metricsPort) = (try FreePort.pick(), try FreePort.pick())
        let daemon = try DaemonHarness(config: """
            control: control.sock
            metrics: 127.0.0.1:\(metricsPort)
            http: {listen: "127.0.0.1:\(port)"}
            streams:
              - name: song
                source: file:\(Self.fixture("cbr.mp3"))
                loop: true
                socket: song.sock
                hls: {segment: 1, part: 0, window: 4}
            """)
        try Self.waitForASegment(daemon, port, "song")
        // Three sessions: `a` (asking twice, once for a segment), `b`, and the one the requests above made, known
        // by its address and user agent.
        for path in ["live.m3u8?session=a", "live.m3u8?session=b", "segment-0.mp3?session=a", "live.m3u8"] {
            _ = try IcecastServer.get(port: port, path: "/hls/song/\(path)")
        }
        let status = try #require(try daemon.streamStatus("song"))
        #expect(status["hlsListeners"] as? Int == 3)
        let icecast = String(decoding: try IcecastServer.get(port: port, path: "/status-json.xsl").body, as: UTF8.self)
        #expect(icecast.contains("\"hls_listeners\":3"), "\(icecast)")
        let page = String(decoding: try IcecastServer.get(port: port, path: "/").body, as: UTF8.self)
        #expect(page.contains("3 HLS listeners"))
        #expect(try MetricsTests.scrape(port: metricsPort)[#"audiostream_hls_listeners{stream="song"}"#] == 3)
        // Two target durations later, none asked again.
        try daemon.waitUntil("the sessions to end") { try daemon.streamStatus("song")?["hlsListeners"] as? Int == 0 }
    }

    /// `hls.path` holds what the daemon serves, each file whole, nothing but what the playlist names: Debian's
    /// nginx serves the folder, and ffmpeg plays from nginx to the file's samples.
    @Test func nginxServesTheFolder() throws {
        let (daemon, _) = try DaemonHarness.withHTTP("""
            - name: song
              source: file:\(Self.fixture("aac.aac"))
              pace: none
              socket: song.sock
              hls: {segment: 2, part: 0.5, window: 6, path: site/song}
            - name: keep
              source: stdin
              socket: keep.sock
            """)
        let folder = daemon.folder.appendingPathComponent("site/song")
        let playlistFile = folder.appendingPathComponent("live.m3u8")
        try daemon.waitUntil("the folder's playlist to end") {
            (try? String(contentsOf: playlistFile, encoding: .utf8))?.contains("#EXT-X-ENDLIST") ?? false
        }
        let playlist = try String(contentsOf: playlistFile, encoding: .utf8)
        let checker = PlaylistChecker(playlist)
        #expect(checker.violations.isEmpty)
        #expect(checker.mediaSequence > 0, "the window let segments go")
        let listed = Set(checker.segments.flatMap { segment in
            [segment.uri] + playlist.components(separatedBy: "\n").filter { $0.hasPrefix("#EXT-X-PART:") }
                .compactMap { PlaylistChecker.attributes(String($0.dropFirst(13)))["URI"] }
        } + ["live.m3u8"])
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(files.isSubset(of: listed), "left behind: \(files.subtracting(listed))")

        let port = try FreePort.pick()
        let configuration = daemon.folder.appendingPathComponent("nginx.conf")
        try """
            daemon off;
            worker_processes 1;
            pid \(daemon.path("nginx.pid"));
            error_log \(daemon.path("nginx-error.log"));
            events {}
            http {
                access_log off;
                client_body_temp_path \(daemon.path("nginx-temp"));
                types { application/vnd.apple.mpegurl m3u8; audio/aac aac; }
                server { listen 127.0.0.1:\(port); root \(daemon.path("site")); }
            }
            """.write(to: configuration, atomically: true, encoding: .utf8)
        let installed = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil
        guard let path = IcecastServer.tool(["nginx"])?.path ?? installed else {
            throw IcecastServer.Failure.toolMissing("nginx")
        }
        let nginx = try ToolProcess(path,
                                    ["-e", daemon.path("nginx-error.log"), "-p", daemon.folder.path, "-c", configuration.path],
                                    folder: daemon.folder, name: "nginx")
        defer { nginx.stop() }
        try daemon.waitUntil("nginx to listen") { FreePort.accepts(port) }
        let whole = try FFmpegTool.decode(Self.fixture("aac.aac"))
        let served = try FFmpegTool.decode("http://127.0.0.1:\(port)/song/live.m3u8")
        // The window keeps the last 6 s: what nginx serves is the end of the file's decode, once the decoder's
        // first frame (which had no frame before it to overlap) is past.
        let settled = 2048 * (try FFmpegTool.channels(Self.fixture("aac.aac")))
        try #require(served.count > settled && served.count < whole.count)
        #expect(Array(whole.suffix(served.count - settled)) == Array(served.dropFirst(settled)))
    }

    /// An HLS client's requests share one connection (HTTP/1.1 keep-alive), as curl reuses it for the next URL;
    /// other answers, and HTTP/1.0 ones, close theirs.
    @Test func hlsAnswersKeepTheConnection() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: song
              source: file:\(Self.fixture("cbr.mp3"))
              loop: true
              socket: song.sock
              hls: {segment: 1, part: 0, window: 4}
            """)
        try Self.waitForASegment(daemon, port, "song")
        let base = "http://127.0.0.1:\(port)"
        let connects = { (arguments: [String]) throws -> [String] in
            let result = try ToolProcess.run("curl", ["-sS", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                                                      "-w", "%{http_code} %{num_connects}\\n"] + arguments,
                                             folder: daemon.folder, name: "curl-keepalive")
            #expect(result.status == 0, "\(result.errors)")
            return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let hls = "\(base)/hls/song/live.m3u8"
        let playlist = try IcecastServer.get(port: port, path: "/hls/song/live.m3u8")
        let segment = try #require(PlaylistChecker(String(decoding: playlist.body, as: UTF8.self)).segments.last).uri
        #expect(try connects([hls, hls, "\(base)/hls/song/\(segment)"]) == ["200 1", "200 0", "200 0"])
        #expect(try connects(["--http1.0", hls, hls, hls]) == ["200 1", "200 1", "200 1"])
        #expect(try connects(["\(base)/status.json", hls, hls]) == ["200 1", "200 1", "200 0"])
    }

    /// Waits until stream `name`'s playlist lists a segment.
    static func waitForASegment(_ daemon: DaemonHarness, _ port: UInt16, _ name: String) throws {
        try daemon.waitUntil("a segment") {
            let playlist = try? IcecastServer.get(port: port, path: "/hls/\(name)/live.m3u8")
            return playlist.map { !PlaylistChecker(String(decoding: $0.body, as: UTF8.self)).segments.isEmpty } ?? false
        }
    }

    /// The boxes one after another in `bytes` (ISO/IEC 14496-12 §4.2): their types and bodies.
    static func boxes(_ bytes: [UInt8]) -> [(type: String, body: [UInt8])] {
        var boxes: [(type: String, body: [UInt8])] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
            guard size >= 8, offset + size <= bytes.count else { break }
            boxes.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self),
                          Array(bytes[offset + 8..<offset + size])))
            offset += size
        }
        return boxes
    }
}
