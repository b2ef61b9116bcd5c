import Foundation
import Testing

/// A browser plays a mount: headless Chromium opens a page with `<audio src=…>` on the daemon's mount, and the
/// element's `currentTime` advances.
@Suite struct BrowserPlaybackTests {
    @Test func headlessChromiumPlaysAMount() throws {
        let chromium = try Self.chromium()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: radio.sock
            """)
        try daemon.waitForMount(port: port, "radio")
        // The page reports the element's state to the server that served it, which logs each request.
        let pagePort = try FreePort.pick()
        try """
            <!doctype html>
            <audio id="player" src="http://127.0.0.1:\(port)/radio" autoplay></audio>
            <script>
            const player = document.getElementById("player");
            player.play().catch(error => fetch("/report?error=" + encodeURIComponent(error.name)));
            setInterval(() => fetch("/report?time=" + player.currentTime.toFixed(2)), 250);
            </script>
            """.write(to: daemon.folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        let pages = try ToolProcess("python3", ["-m", "http.server", String(pagePort), "--bind", "127.0.0.1",
                                                "--directory", daemon.folder.path], folder: daemon.folder, name: "pages")
        defer { pages.stop() }
        try daemon.waitUntil("the page server") { FreePort.accepts(pagePort) }
        let browser = try ToolProcess(chromium.path, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--autoplay-policy=no-user-gesture-required",
            "--user-data-dir=\(daemon.folder.appendingPathComponent("chromium").path)",
            "http://127.0.0.1:\(pagePort)/page.html",
        ], folder: daemon.folder, name: "chromium")
        defer { browser.stop() }
        let reports = { () -> [Double] in
            let log = (try? String(contentsOf: pages.errorsFile, encoding: .utf8)) ?? ""
            return log.components(separatedBy: "/report?time=").dropFirst().compactMap { Double($0.prefix { $0 != " " }) }
        }
        try daemon.waitUntil("the audio element to play 2 s", timeout: 60) { (reports().max() ?? 0) >= 2 }
        #expect(try daemon.streamStatus("radio")?["listeners"] as? [Any] != nil)
        let log = (try? String(contentsOf: pages.errorsFile, encoding: .utf8)) ?? ""
        #expect(!log.contains("/report?error="), "\(log)")
    }

    /// Chromium, which the tests of pages need.
    static func chromium() throws -> URL {
        guard let chromium = IcecastServer.tool(["chromium", "chromium-browser"]) else {
            throw IcecastServer.Failure.toolMissing("chromium")
        }
        return chromium
    }
}
