import FixtureSupport
import Foundation
import Testing

/// Which mounts `/status-json.xsl` lists, against a real Icecast 2.4 fed by the same source client: a push mount is
/// listed while a DJ is on the air and not before or after, as Icecast lists a mount only while it has a source
/// (dashboards tell "DJ live" by it), and its `stream_start` is when that DJ came, not when the mount was made.
@Suite struct IcecastMountListingTests {
    @Test func aPushMountIsListedOnlyWhileItsDJIsOnTheAir() throws {
        let icecast = try IcecastServer()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: live
              source: push
              socket: live.sock
            """, http: "sourcePassword: \(icecast.sourcePassword)")
        try daemon.waitForHTTP()
        let ourURL = "http://127.0.0.1:\(port)/live"
        let ours = { try IcecastStatusTests.stats(port: port) }
        // Icecast 2.4's XSL writes no valid JSON for a server without sources: its text is looked at.
        let theirsList = {
            String(decoding: try icecast.get("/status-json.xsl").body, as: UTF8.self).contains("\"source\"")
        }
        #expect(try !theirsList(), "Icecast lists a mount without a source")
        let before = try ours()
        #expect(before["source"] == nil, "\(before)")
        // Seconds after the daemon started, so that the mount's age and the DJ's differ.
        sleep(2)

        let connected = Date()
        try icecast.startSource(file: HTTPListenerTests.demo)
        let dj = try ToolProcess("ffmpeg", [
            "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", HTTPListenerTests.demo.path, "-c", "copy",
            "-f", "mp3", "icecast://source:\(icecast.sourcePassword)@127.0.0.1:\(port)/live",
        ], folder: daemon.folder, name: "dj")
        defer { dj.stop(timeout: 0) }
        try daemon.waitUntil("the DJ to be listed") { IcecastStatusTests.source(try ours(), url: ourURL) != nil }
        #expect(try theirsList())
        let source = try #require(IcecastStatusTests.source(try ours(), url: ourURL))
        let start = try #require(Self.date(source["stream_start_iso8601"] as? String), "\(source)")
        #expect(start >= connected.addingTimeInterval(-1), "stream_start \(start) is before the DJ came at \(connected)")

        try icecast.stopSource()
        #expect(try !theirsList())
        dj.stop()
        try daemon.waitUntil("the DJ to leave and the mount to go") { try ours()["source"] == nil }
    }

    /// Icecast's `stream_start_iso8601`: `2026-11-27T15:32:50+0000`.
    static func date(_ text: String?) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
        return text.flatMap(formatter.date)
    }
}
