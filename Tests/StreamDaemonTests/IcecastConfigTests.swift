import Foundation
import StreamDaemon
import Testing

/// `http.adminPassword`, and the paths the server answers as Icecast does, which no stream's mount may take.
@Suite struct IcecastConfigTests {
    static func load(http: String = "", mount: String = "/radio") throws -> DaemonConfig {
        let folder = try DaemonHarness.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.yaml")
        try """
            http: {listen: "127.0.0.1:8000"\(http)}
            streams:
              - {name: radio, source: stdin, socket: radio.sock, mount: "\(mount)"}
            """.write(to: file, atomically: true, encoding: .utf8)
        return try ConfigLoader(file: file.path).load()
    }

    @Test func theAdminPasswordIsReadAndMayNotBeEmpty() throws {
        #expect(try Self.load(http: ", adminPassword: s3cret").http?.adminPassword == "s3cret")
        #expect(try Self.load().http?.adminPassword == nil)
        #expect { try Self.load(http: ", adminPassword: ''") } throws: { "\($0)".contains("http.adminPassword") }
    }

    @Test(arguments: ["/", "/status-json.xsl", "/admin/metadata", "/status.json", "/admin/streamlist.txt"])
    func aMountOnTheServersOwnPathIsRefused(_ mount: String) throws {
        // `/` is no mount's name in any case.
        #expect { try Self.load(mount: mount) } throws: {
            "\($0)".contains("streams[0].mount") && (mount == "/" || "\($0)".contains("server's own"))
        }
    }

    @Test func mountsNamedLikePlaylistsAreStreams() throws {
        #expect(try Self.load(mount: "/radio.m3u").streams.first?.mount == "/radio.m3u")
    }
}
