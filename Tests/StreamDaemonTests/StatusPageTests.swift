import Foundation
@testable import StreamDaemon
import Testing

/// The page at `/` in headless Chromium: it lists every mount with what plays, and its player plays.
///
/// The browser is driven over its DevTools pipe (`--remote-debugging-pipe`) by a small Python client of the
/// standard library: it asks the page itself what it shows and, after `play()`, waits until the player's
/// `currentTime` has passed 2 s. Nothing is timed: each step waits, within a generous deadline, for what the
/// browser reports, so a slow machine only takes longer; and the page needs no script of its own for the test.
@Suite struct StatusPageTests {
    @Test func theStatusPageListsTheMountsAndItsPlayerPlays() throws {
        let chromium = try BrowserPlaybackTests.chromium()
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: radio.sock
            - name: quiet
              source: stdin
              socket: quiet.sock
            """, http: "adminPassword: pw, name: \"Test FM\"")
        try daemon.waitForMount(port: port, "radio")
        // A title that is markup: the page must show it as text.
        let title = "<script>document.title='owned'</script> & \"Ünïcødé\""
        let song = title.utf8.map { String(format: "%%%02X", $0) }.joined()
        let set = try AdminMetadataTests.call(port, "mount=/radio&mode=updinfo&song=\(song)", user: "admin:pw",
                                              folder: daemon.folder)
        #expect(set.status == 200)
        try daemon.waitUntil("the title") {
            try IcecastStatusTests.source(IcecastStatusTests.stats(port: port),
                                          url: "http://127.0.0.1:\(port)/radio")?["title"] as? String == title
        }

        let script = daemon.folder.appendingPathComponent("play_page.py")
        try Self.client.write(to: script, atomically: true, encoding: .utf8)
        let client = try ToolProcess("python3", [
            script.path, chromium.path, "http://127.0.0.1:\(port)/", "/radio",
            daemon.folder.appendingPathComponent("chromium").path, "90",
        ], folder: daemon.folder, name: "cdp")
        defer { client.stop() }
        try daemon.waitUntil("the browser's report", timeout: 120) { !client.process.isRunning }
        let (status, output, errors) = client.finish()
        #expect(status == 0, "\(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any], "\(errors)")
        #expect(report["standards"] as? Bool == true, "no doctype: \(report)")
        #expect(report["title"] as? String == "Test FM", "\(report)")
        #expect(report["scripts"] as? Int == 0, "the title became markup: \(report)")
        // The stream with no audio is off the air: a player there would get a 503.
        #expect(report["players"] as? [String] == ["/radio"], "\(report)")
        #expect((report["text"] as? String)?.contains("Now playing: \(title)") == true, "\(report)")
        #expect(report["foreign"] as? [String] == [], "fetched from elsewhere: \(report)")
        #expect(report["error"] is NSNull, "\(report)")
        #expect((report["currentTime"] as? Double ?? 0) >= 2, "\(report)")
    }

    /// The page is headed by `http.name`, tells each mount's state (live, on its fallback, off the air), offers a
    /// player only on the air, and asks the browser to load it again, without a script.
    @Test func thePageTellsEachMountsStateAndRefreshes() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: radio.sock
            - name: live
              source: push
              socket: live.sock
            - name: autodj
              source: push
              socket: autodj.sock
              fallback: {source: "file:\(HTTPListenerTests.demo.path)", loop: true}
            """, http: "sourcePassword: pw, name: \"Radio <Ünïcødé>\"")
        try daemon.waitForMount(port: port, "radio")
        try daemon.waitForMount(port: port, "autodj")
        let page = try IcecastServer.get(port: port, path: "/")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<h1>Radio &lt;Ünïcødé&gt;</h1>"), "\(html)")
        #expect(html.contains("<meta http-equiv=\"refresh\" content=\"\(StatusPage.refreshSeconds)\">"))
        #expect(!html.contains("<script"))
        let sections = html.components(separatedBy: "<section>").dropFirst()
        let state = { (mount: String) in sections.first { $0.contains("href=\"\(mount)\"") } ?? "" }
        #expect(state("/radio").contains("live") && state("/radio").contains("<audio"), "\(state("/radio"))")
        #expect(state("/autodj").contains("on its fallback") && state("/autodj").contains("<audio"))
        #expect(state("/live").contains("off the air") && !state("/live").contains("<audio"), "\(state("/live"))")
    }

    /// Starts Chromium with its DevTools pipe on descriptors 3 and 4, opens the page, waits for it to load,
    /// reads what it shows, plays the player of the mount, and prints a JSON report once it has played 2 s
    /// (or failed, or the deadline passed).
    static let client = #"""
        import json, os, select, subprocess, sys, time

        chromium, url, mount, profile, limit = sys.argv[1:6]
        deadline = time.time() + float(limit)
        to_browser, from_browser = os.pipe(), os.pipe()

        def descriptors():
            os.dup2(to_browser[0], 3)
            os.dup2(from_browser[1], 4)

        browser = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--autoplay-policy=no-user-gesture-required", "--remote-debugging-pipe",
             "--user-data-dir=" + profile, "about:blank"],
            pass_fds=(3, 4), preexec_fn=descriptors, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser[0])
        os.close(from_browser[1])
        pending, next_id = b"", 0

        def call(method, session=None, **params):
            global pending, next_id
            next_id += 1
            message = {"id": next_id, "method": method, "params": params}
            if session:
                message["sessionId"] = session
            os.write(to_browser[1], json.dumps(message).encode() + b"\0")
            while True:
                while b"\0" in pending:
                    raw, pending = pending.split(b"\0", 1)
                    answer = json.loads(raw)
                    if answer.get("id") == next_id:
                        if "error" in answer:
                            raise RuntimeError(f"{method}: {answer['error']}")
                        return answer["result"]
                ready, _, _ = select.select([from_browser[0]], [], [], max(0, deadline - time.time()))
                if not ready:
                    raise TimeoutError(f"no answer to {method}")
                chunk = os.read(from_browser[0], 1 << 16)
                if not chunk:
                    raise EOFError("the browser closed its pipe")
                pending += chunk

        def evaluate(session, expression):
            result = call("Runtime.evaluate", session, expression=expression, awaitPromise=True, returnByValue=True)
            if "exceptionDetails" in result:
                raise RuntimeError(json.dumps(result["exceptionDetails"]))
            return result["result"].get("value")

        try:
            target = call("Target.createTarget", url=url)["targetId"]
            session = call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            while evaluate(session, "location.href + ' ' + document.readyState") != url + " complete":
                if time.time() > deadline:
                    raise TimeoutError("the page did not load")
                time.sleep(0.1)
            report = evaluate(session, """(async () => {
                const players = [...document.querySelectorAll("audio")];
                const player = players.find(audio => audio.getAttribute("src") === %s);
                const page = {
                    standards: document.compatMode === "CSS1Compat", title: document.title,
                    scripts: document.scripts.length, text: document.body.innerText,
                    players: players.map(audio => audio.getAttribute("src")).sort(),
                };
                if (!player) return page;
                await player.play();
                while (player.currentTime < 2 && !player.error) await new Promise(done => setTimeout(done, 100));
                page.currentTime = player.currentTime;
                page.error = player.error && player.error.code;
                page.foreign = performance.getEntriesByType("resource").map(entry => entry.name)
                    .filter(name => !name.startsWith(location.origin + "/"));
                return page;
            })()""" % json.dumps(mount))
            print(json.dumps(report))
        finally:
            browser.terminate()
            try:
                browser.wait(5)
            except subprocess.TimeoutExpired:
                browser.kill()
                browser.wait()
        """#
}
