import FixtureSupport
import Foundation
import Testing

/// A source switch in the HLS playlist, as a real DJ client makes one: ffmpeg pushes a station over the fallback
/// and leaves again.
@Suite struct HLSDiscontinuityTests {
    /// A DJ taking the air from the fallback, and the fallback taking it back, each start a segment marked
    /// `#EXT-X-DISCONTINUITY` (RFC 8216bis §4.4.4.3; the format changes too, 48 kHz to 44.1 kHz and back): every
    /// segment holds one source's frames as its file holds them, a segment of another source than the one before
    /// it follows a discontinuity, and every playlist on the way keeps the spec's rules and its predecessor's
    /// sequence. (The 1 s fallback file starts again after each loop, which is a discontinuity of its own.)
    @Test func aDJAndTheFallbackEachStartAfterADiscontinuity() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: push
              socket: radio.sock
              fallback: {source: "file:\(FallbackSourceTests.fallbackFile)", loop: true}
              hls: {segment: 1, part: 0.25, window: 60}
            """, http: "sourcePassword: hackme")
        let subscriber = try daemon.subscribe("radio", kinds: "packets,properties")
        var playlists: [String] = []
        func playlist() throws -> PlaylistChecker {
            let text = String(decoding: try IcecastServer.get(port: port, path: "/hls/radio/live.m3u8").body,
                              as: UTF8.self)
            playlists.append(text)
            return PlaylistChecker(text)
        }
        try daemon.waitUntil("the fallback's segments") { (try? playlist())?.segments.isEmpty == false }

        let dj = try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-stream_loop", "2", "-i", FallbackSourceTests.stationFile, "-c", "copy",
            "-f", "mp3", "icecast://source:hackme@127.0.0.1:\(port)/radio",
        ], folder: daemon.folder, name: "dj")
        defer { dj.stop(timeout: 0) }
        try daemon.waitUntil("the DJ to come and go", timeout: 30) {
            let states = FallbackSourceTests.states(subscriber.events)
            return states.contains("restored") && states.count { $0 == "fallback" } == 2
        }
        let station = try Data(contentsOf: URL(fileURLWithPath: FallbackSourceTests.stationFile))
        let fallback = try Data(contentsOf: URL(fileURLWithPath: FallbackSourceTests.fallbackFile))
        var sources: [String: Data] = [:]
        func source(of uri: String) throws -> Data? {
            let frames = try Self.frames(of: uri, port: port)
            sources[uri] = [station, fallback].first { $0.range(of: frames.prefix(64)) != nil }
            // One source from the first frame to the last.
            #expect(sources[uri]?.range(of: frames.suffix(64)) != nil, "\(uri) is not one source's frames")
            return sources[uri]
        }
        try daemon.waitUntil("a fallback segment after the DJ's", timeout: 10) {
            let segments = try playlist().segments
            return try segments.contains { try source(of: $0.uri) == station }
                && source(of: segments.last!.uri) == fallback
        }

        let last = PlaylistChecker(playlists.last!)
        #expect(last.violations.isEmpty, "\(last.violations)\n\(playlists.last!)")
        for (old, new) in zip(playlists, playlists.dropFirst()) {
            let violations = PlaylistChecker.continuity(from: PlaylistChecker(old), to: PlaylistChecker(new))
            #expect(violations.isEmpty, "\(violations)")
        }
        var switches: [(from: Data?, to: Data?)] = []
        for (before, segment) in zip(last.segments, last.segments.dropFirst()) {
            let (from, to) = (try source(of: before.uri), try source(of: segment.uri))
            guard from != to else { continue }
            switches.append((from, to))
            #expect(segment.isDiscontinuity, "\(segment.uri) starts another source without a discontinuity")
        }
        #expect(switches.map { [$0.from, $0.to] } == [[fallback, station], [station, fallback]])
    }

    /// The MP3 frames of a packed segment: its bytes after the leading ID3 timestamp tag.
    static func frames(of uri: String, port: UInt16) throws -> Data {
        let bytes = try IcecastServer.get(port: port, path: "/hls/radio/\(uri)").body
        try #require(bytes.count > 10 && bytes.starts(with: Array("ID3".utf8)), "\(uri) has no ID3 tag")
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        return Data(bytes.dropFirst(10 + size))
    }
}
