import Foundation
import Testing

/// `/MOUNT.m3u` and `/MOUNT.pls`, read back with curl: one entry, the mount's URL as the client reached the
/// server (its Host header, as Icecast writes it), and a mount whose own name ends in `.m3u` is still its audio.
@Suite struct PlaylistTests {
    @Test func playlistsNameTheMountAsTheClientReachedTheServer() throws {
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: radio.sock
            - name: odd
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: odd.sock
              mount: /odd.m3u
            """)
        try daemon.waitForMount(port: port, "radio")
        try daemon.waitForMount(port: port, "odd")
        let fetch = { (path: String, host: String?) throws -> (type: String, body: String) in
            let result = try ToolProcess.run("curl", [
                "-sS", "--max-time", "20", "-w", "\n@@%{content_type}", "-H", "Host: \(host ?? "127.0.0.1:\(port)")",
                "http://127.0.0.1:\(port)\(path)",
            ], folder: daemon.folder, name: "curl-playlist")
            #expect(result.status == 0, "\(path): \(result.errors)")
            let parts = String(decoding: result.output, as: UTF8.self).components(separatedBy: "\n@@")
            return (parts.last ?? "", parts.dropLast().joined())
        }
        // What Icecast 2.4.4 answers for its mount /live.mp3 as http://radio.example:9000/live.mp3.m3u: the URL,
        // then CRLF, as audio/x-mpegurl.
        let m3u = try fetch("/radio.m3u", "radio.example:9000")
        #expect(m3u.type == "audio/x-mpegurl")
        #expect(m3u.body == "http://radio.example:9000/radio\r\n")

        let pls = try fetch("/radio.pls", nil)
        #expect(pls.type == "audio/x-scpls")
        let entries = Dictionary(pls.body.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }) { first, _ in first }
        #expect(pls.body.hasPrefix("[playlist]\n"))
        #expect(entries["NumberOfEntries"] == "1")
        #expect(entries["File1"] == "http://127.0.0.1:\(port)/radio")
        #expect(entries["Version"] == "2")

        // The mount /odd.m3u is a stream; its playlist is /odd.m3u.m3u.
        let odd = try IcecastServer.get(port: port, path: "/odd.m3u", maxBodyBytes: 1000)
        #expect(odd.header("content-type") == "audio/mpeg")
        #expect(try fetch("/odd.m3u.m3u", "127.0.0.1:\(port)").body == "http://127.0.0.1:\(port)/odd.m3u\r\n")
        #expect(try IcecastServer.get(port: port, path: "/none.m3u").status == 404)
    }
}
