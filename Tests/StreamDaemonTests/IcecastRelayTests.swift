import FixtureSupport
import Foundation
import Testing

/// A real Icecast 2 server carrying the daemon's mounts further: a `<relay>` of one mount, and master/slave
/// relaying of every mount from `/admin/streamlist.txt`.
@Suite struct IcecastRelayTests {
    /// A song, then another several times over (longer than an ICY interval), so the title changes as it plays.
    static func playlist(in folder: URL) throws -> (file: URL, packets: [Data], titles: Set<String>) {
        let tagged = HTTPListenerTests.tagged
        let repeats = HTTPListenerTests.taggedRepeats
        var bytes = try Data(contentsOf: HTTPListenerTests.demo)
        for _ in 0..<repeats { bytes += try Data(contentsOf: tagged) }
        let file = folder.appendingPathComponent("playlist.mp3")
        try bytes.write(to: file)
        let taggedPackets = try HTTPStreamCheck.ffprobePackets(tagged, folder: folder)
        let packets = try HTTPStreamCheck.ffprobePackets(HTTPListenerTests.demo, folder: folder)
            + Array(repeating: taggedPackets, count: repeats).flatMap { $0 }
        let titles: Set = [try HTTPStreamCheck.ffprobeTitle(HTTPListenerTests.demo, folder: folder),
                           try HTTPStreamCheck.ffprobeTitle(tagged, folder: folder)]
        return (file, packets, titles)
    }

    @Test func icecastRelaysAMountWithItsPacketsAndTitles() throws {
        let folder = try DaemonHarness.makeFolder()
        let playlist = try Self.playlist(in: folder)
        let (daemon, port) = try DaemonHarness.withHTTP("""
            - name: radio
              source: file:\(playlist.file.path)
              loop: true
              pace: 4
              socket: radio.sock
              mount: /radio.mp3
            """, folder: folder)
        try daemon.waitForMount(port: port, "radio")
        let icecast = try IcecastServer(relaying: """
            <relay>
                <server>127.0.0.1</server>
                <port>\(port)</port>
                <mount>/radio.mp3</mount>
                <local-mount>/relayed.mp3</local-mount>
                <on-demand>0</on-demand>
                <relay-shoutcast-metadata>1</relay-shoutcast-metadata>
            </relay>
            """)
        try daemon.waitUntil("Icecast to relay the mount", timeout: 30) {
            try icecast.mountStatus("/relayed.mp3") != nil
        }
        // A loop of the playlist at 4x is about 6 s: enough for both titles.
        let response = try icecast.get("/relayed.mp3", headers: [("Icy-MetaData", "1")], maxBodyBytes: 600_000,
                                       timeout: 30)
        #expect(response.status == 200, "\(response.statusLine)")
        #expect(response.header("icy-name") == "radio")
        let metaint = Int(response.header("icy-metaint") ?? "") ?? 0
        #expect(metaint > 0)
        let (audio, blocks) = HTTPStreamCheck.splitICY(response.body, metaint: metaint)
        #expect(Set(blocks.compactMap(HTTPStreamCheck.streamTitle).filter { !$0.isEmpty }) == playlist.titles)
        // Icecast starts its listener on any byte: past the first frame the audio is the packets, looped.
        let looped = Array(repeating: playlist.packets.reduce(Data(), +), count: 3).reduce(Data(), +)
        #expect(audio.count > 400_000)
        #expect(looped.range(of: audio.dropFirst(4096)) != nil, "the relayed audio is not the stream's packets")
        #expect(try HTTPListenerTests.mountStatus(port, "radio")?["listeners"] as? Int == 1)
    }

    @Test func icecastAsSlaveRelaysEveryMountOfTheStreamList() throws {
        let (daemon, port) = try DaemonHarness.withHTTP(DaemonHarness.loopedRadio + """

            - name: jazz
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: jazz.sock
            - name: private
              source: file:\(HTTPListenerTests.demo.path)
              loop: true
              socket: private.sock
              http: false
            """, http: "relayPassword: relay-secret")
        try daemon.waitForMount(port: port, "jazz")
        try daemon.waitForMount(port: port, "radio")
        let refused = try IcecastServer.get(port: port, path: "/admin/streamlist.txt", headers: [
            ("Authorization", "Basic " + Data("relay:wrong".utf8).base64EncodedString()),
        ])
        #expect(refused.status == 401)

        let icecast = try IcecastServer(relaying: IcecastServer.slave(ofPort: port, password: "relay-secret"))
        try daemon.waitUntil("Icecast to relay every mount", timeout: 30) {
            try icecast.mountStatus("/radio.mp3") != nil && icecast.mountStatus("/jazz") != nil
        }
        #expect(try icecast.mountStatus("/private") == nil)
        let response = try icecast.get("/jazz", maxBodyBytes: 20_000, timeout: 10)
        #expect(response.status == 200)
        #expect(response.body.count == 20_000)
    }
}
