import FixtureSupport
import Foundation
import Testing

/// A browser plays the daemon's streams: headless Chromium opens a page with an `<audio>` element on a mount, or
/// on a stream's HLS playlist where Chromium plays HLS itself, and the element's `currentTime` advances.
@Suite struct BrowserPlaybackTests {
    @Test func headlessChromiumPlaysAMount() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: radio.sock
            """)
        try daemon.waitForMount(port: port, "radio")
        let page = try BrowserPage(daemon: daemon, script: """
            player.src = "http://127.0.0.1:\(port)/radio";
            player.play().catch(error => report("error", error.name));
            setInterval(() => report("time", player.currentTime.toFixed(2)), 250);
            """)
        try daemon.waitUntil("the audio element to play 2 s", timeout: 60) {
            (page.reports("time").compactMap(Double.init).max() ?? 0) >= 2
        }
        #expect(try daemon.streamStatus("radio")?["listeners"] as? [Any] != nil)
        #expect(page.reports("error").isEmpty, "\(page.reports("error"))")
    }

    /// Chromium plays `live.m3u8` where it has HLS of its own (`canPlayType` says so); the test says which way
    /// it went. Of packed audio, Chromium's HLS takes AAC and refuses MP3 ("no supported source").
    @Test func headlessChromiumPlaysHLSWhereItCan() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(Fixtures.directory.appendingPathComponent("record/aac.aac").path)
              loop: true
              socket: radio.sock
              hls: {segment: 1, part: 0.25, window: 6}
            """)
        try daemon.waitForMount(port: port, "radio")
        let page = try BrowserPage(daemon: daemon, script: """
            const support = player.canPlayType("application/vnd.apple.mpegurl");
            report("support", support || "none");
            if (support) {
                player.src = "http://127.0.0.1:\(port)/hls/radio/live.m3u8";
                player.play().catch(error => report("error", error.name));
                player.addEventListener("error", () => report("error", player.error.message));
                setInterval(() => report("time", player.currentTime.toFixed(2)), 250);
            }
            """)
        try daemon.waitUntil("the page to say whether it plays HLS", timeout: 60) { !page.reports("support").isEmpty }
        let support = page.reports("support")[0]
        guard support != "none" else {
            print("Chromium has no HLS of its own (canPlayType says nothing): nothing to play")
            return
        }
        print("Chromium plays HLS itself (canPlayType: \(support))")
        try daemon.waitUntil("the audio element to play 2 s of HLS", timeout: 60) {
            (page.reports("time").compactMap(Double.init).max() ?? 0) >= 2
        }
        #expect(page.reports("error").isEmpty, "\(page.reports("error"))")
        #expect(try daemon.streamStatus("radio")?["hlsListeners"] as? Int ?? 0 >= 1)
    }

    /// Chromium, which the tests of pages need.
    static func chromium() throws -> URL {
        guard let chromium = IcecastServer.tool(["chromium", "chromium-browser"]) else {
            throw IcecastServer.Failure.toolMissing("chromium")
        }
        return chromium
    }
}

/// A page with an `<audio id="player">` element and `script`, opened by headless Chromium from a server of its
/// own, which logs each request: the script tells what it sees by `report(name, value)`.
final class BrowserPage {
    private let pages: ToolProcess
    private let browser: ToolProcess

    init(daemon: DaemonHarness, script: String) throws {
        let chromium = try BrowserPlaybackTests.chromium()
        let pagePort = try FreePort.pick()
        try """
            <!doctype html>
            <audio id="player" autoplay></audio>
            <script>
            const player = document.getElementById("player");
            const report = (name, value) => fetch("/report?" + name + "=" + encodeURIComponent(value));
            \(script)
            </script>
            """.write(to: daemon.folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        pages = try ToolProcess("python3", ["-m", "http.server", String(pagePort), "--bind", "127.0.0.1",
                                            "--directory", daemon.folder.path], folder: daemon.folder, name: "pages")
        try daemon.waitUntil("the page server") { FreePort.accepts(pagePort) }
        browser = try ToolProcess(chromium.path, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--autoplay-policy=no-user-gesture-required",
            "--user-data-dir=\(daemon.folder.appendingPathComponent("chromium").path)",
            "http://127.0.0.1:\(pagePort)/page.html",
        ], folder: daemon.folder, name: "chromium")
    }

    deinit {
        browser.stop()
        pages.stop()
    }

    /// The values reported as `name` so far, in order.
    func reports(_ name: String) -> [String] {
        let log = (try? String(contentsOf: pages.errorsFile, encoding: .utf8)) ?? ""
        return log.components(separatedBy: "/report?\(name)=").dropFirst()
            .map { String($0.prefix { $0 != " " }).removingPercentEncoding ?? "" }
    }
}
