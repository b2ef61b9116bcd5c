import FixtureSupport
import Foundation
import Testing

/// A push mount plays one codec, its `codec:` or else the first heard since the stream started: listeners and
/// recordings cannot follow a DJ who sends another. Such a DJ is refused with Icecast's 403 when its content type
/// says so, and dropped at its first frame when it does not; the mount goes on playing for the next DJ.
@Suite struct PushCodecTests {
    static let opus = Fixtures.directory.appendingPathComponent("ogg/ogg-opus-64k-stereo.opus")
    static let vorbis = Fixtures.directory.appendingPathComponent("ogg/ogg-vorbis-q0-44k-stereo.ogg")

    @Test func aLaterClientOfAnotherCodecIsRefusedAtTheDoorOrAtItsFirstFrame() throws {
        let (daemon, port) = try PushSourceTests.daemon()
        let subscriber = try daemon.subscribe("live", kinds: "packets,properties")
        try Self.push(PushSourceTests.short, as: "audio/mpeg", port: port, daemon: daemon, sessions: 1)

        let byType = try RawConnection(port: port)
        byType.send(PushSourceTests.legacyHead(password: PushSourceTests.password, name: "Opus DJ",
                                               contentType: "audio/ogg"))
        let refusal = PushSourceTests.readHead(byType)
        #expect(refusal.hasPrefix("HTTP/1.0 403 "), "\(refusal)")
        // An Opus stream that says it is MP3 gets in, and is dropped at its first frame, before the air.
        try Self.push(Self.opus, as: "audio/mpeg", port: port, daemon: daemon, sessions: 2)
        try daemon.waitUntil("the Opus client to be dropped") { daemon.log.contains("it sends opus") }
        try Self.push(PushSourceTests.short, as: "audio/mpeg", port: port, daemon: daemon, sessions: 3)

        let result = try PushSourceTests.finish(subscriber, of: daemon)
        try Self.expect(result.events, holdOnly: ".mp3", packetsOf: PushSourceTests.short, times: 2, folder: daemon.folder)
    }

    @Test func aConfiguredCodecRefusesEveryOtherFromTheFirstClient() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              codec: opus
              socket: live.sock
              queueSeconds: 60
            """, http: "sourcePassword: \(PushSourceTests.password)")
        let subscriber = try daemon.subscribe("live", kinds: "packets,properties")
        let mp3 = try PushSourceTests.curlPut(port: port, "/live", password: PushSourceTests.password,
                                              folder: daemon.folder)
        #expect(mp3.status?.contains("403") == true, "\(mp3)")
        #expect(mp3.body.contains("opus"), "the refusal names the mount's codec: \(mp3.body)")
        try Self.push(Self.opus, as: "audio/ogg", port: port, daemon: daemon, sessions: 1)

        let result = try PushSourceTests.finish(subscriber, of: daemon)
        try Self.expect(result.events, holdOnly: "opus", packetsOf: Self.opus, times: 1, folder: daemon.folder)
    }

    /// ices2 pushes Ogg Vorbis to a mount without `codec:`, then ffmpeg MP3: ffmpeg is refused with 403 and says
    /// so, and the mount is never silent for the next Ogg DJ.
    @Test func anIces2OggDJThenAnFFmpegMP3DJOnOneMount() throws {
        let (daemon, port) = try PushSourceTests.daemon()
        let subscriber = try daemon.subscribe("live", kinds: "packets,properties")
        try Self.ices2(port: port, daemon: daemon, name: "ices-1")
        try daemon.waitUntil("ices2's DJ to leave") {
            try daemon.streamStatus("live")?["connected"] as? Bool == false
                && subscriber.events.contains { $0["event"] as? String == "packet" }
        }

        let ffmpeg = try ToolProcess.run("ffmpeg", ["-nostdin"] + PushSourceTests.ffmpegPush(
            PushSourceTests.short, port: port), folder: daemon.folder, name: "ffmpeg-dj")
        #expect(ffmpeg.status != 0)
        #expect(ffmpeg.errors.contains("403"), "\(ffmpeg.errors)")
        try Self.ices2(port: port, daemon: daemon, name: "ices-2")
        try Self.waitUntilGone(clients: 2, of: daemon)

        // ices2 sends the file's pages as they are: every packet of both sessions arrives.
        let result = try PushSourceTests.finish(subscriber, of: daemon)
        try Self.expect(result.events, holdOnly: "vorb", packetsOf: Self.vorbis, times: 2, folder: daemon.folder)
    }

    // MARK: - Helpers

    /// Expects the subscriber's `events` to announce `format` alone, and `times` as many packets as ffprobe counts
    /// in `file`.
    static func expect(_ events: [[String: Any]], holdOnly format: String, packetsOf file: URL, times: Int,
                       folder: URL) throws {
        let formats = SourceHandoverTests.formats(events)
        #expect(Set(formats) == [format], "\(formats)")
        let packets = events.count { $0["event"] as? String == "packet" }
        let expected = try HTTPStreamCheck.ffprobePackets(file, folder: folder).count
        #expect(packets == times * expected, "\(packets) packets; ffprobe counts \(expected) in \(file.lastPathComponent)")
    }

    /// Waits until `/live` has had `clients` source clients in all and none pushes.
    static func waitUntilGone(clients: Int, of daemon: DaemonHarness) throws {
        try daemon.waitUntil("\(clients) source clients to have come and gone") {
            try daemon.streamStatus("live")?["reconnects"] as? Int == clients - 1
                && daemon.streamStatus("live")?["connected"] as? Bool == false
        }
    }

    /// Pushes `file` whole as a legacy source client announcing `contentType`, and waits until the mount has seen
    /// `sessions` clients in all and none pushes.
    static func push(_ file: URL, as contentType: String, port: UInt16, daemon: DaemonHarness, sessions: Int) throws {
        let client = try RawConnection(port: port)
        client.send(PushSourceTests.legacyHead(password: PushSourceTests.password, name: "DJ \(sessions)",
                                               contentType: contentType))
        #expect(PushSourceTests.readHead(client) == "HTTP/1.0 200 OK\r\n\r\n")
        client.send(try Data(contentsOf: file))
        shutdown(client.descriptor, Int32(SHUT_WR))
        try waitUntilGone(clients: sessions, of: daemon)
    }

    /// Runs ices2 to its end: its playlist module sends the Vorbis file once, in real time, to `/live`.
    static func ices2(port: UInt16, daemon: DaemonHarness, name: String) throws {
        let folder = daemon.folder
        let playlist = folder.appendingPathComponent("\(name).txt")
        try "\(vorbis.path)\n".write(to: playlist, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("\(name).xml")
        try """
            <?xml version="1.0"?>
            <ices>
              <background>0</background>
              <logpath>\(folder.path)</logpath>
              <logfile>\(name).log</logfile>
              <loglevel>3</loglevel>
              <consolelog>0</consolelog>
              <stream>
                <metadata><name>Ogg DJ</name><genre>Test</genre><description>ices2</description></metadata>
                <input>
                  <module>playlist</module>
                  <param name="type">basic</param>
                  <param name="file">\(playlist.path)</param>
                  <param name="random">0</param>
                  <param name="once">1</param>
                </input>
                <instance>
                  <hostname>127.0.0.1</hostname>
                  <port>\(port)</port>
                  <password>\(PushSourceTests.password)</password>
                  <mount>/live</mount>
                  <reconnectattempts>0</reconnectattempts>
                </instance>
              </stream>
            </ices>
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = try ToolProcess.run("ices2", [config.path], folder: folder, name: name)
        #expect(result.status == 0, "\(result)")
    }
}
