import Foundation
import StreamDaemon
import Testing

/// `audiostream status` as a newcomer uses it: on the wrong socket, and on a daemon without HTTP.
@Suite struct StatusCommandTests {
    static func status(_ daemon: DaemonHarness, _ arguments: [String]) throws
        -> (status: Int32, output: String, errors: String) {
        let result = try ToolProcess.run(DaemonHarness.binary("audiostream").path, ["status"] + arguments,
                                         folder: daemon.folder, name: "status")
        return (result.status, String(decoding: result.output, as: UTF8.self), result.errors)
    }

    @Test func aStreamSocketSaysToAskTheControlSocket() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("radio.sock")
        let result = try Self.status(daemon, [daemon.path("radio.sock")])
        #expect(result.status != 0)
        #expect(result.errors.contains("\(daemon.path("radio.sock")): this is a stream's socket, for subscribers: "
            + "ask the control socket"), "\(result.errors)")
    }

    /// A push stream before its first DJ says that none came yet, not that one was lost for an unknown reason.
    @Test func aPushStreamBeforeItsFirstClientSaysNoneCameYet() throws {
        let (daemon, _) = try PushSourceTests.daemon()
        try daemon.waitForSocket("control.sock")
        let result = try Self.status(daemon, [daemon.path("control.sock")])
        #expect(result.output.contains("live: running, push (no source client yet, 0 reconnect(s))"), "\(result.output)")
    }

    /// A stream has a mount only when the daemon serves HTTP.
    @Test func aDaemonWithoutHTTPShowsNoMount() throws {
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig)
        try daemon.waitForSocket("control.sock")
        let result = try Self.status(daemon, [daemon.path("control.sock"), "--json"])
        let answer = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let stream = try #require((answer?["streams"] as? [[String: Any]])?.first)
        #expect(stream["mount"] is NSNull, "\(stream)")

        let (served, _) = try DaemonHarness.withHTTP("""
            - name: radio
              source: stdin
              socket: radio.sock
            """)
        try served.waitForSocket("control.sock")
        #expect(try served.streamStatus("radio")?["mount"] as? String == "/radio")
    }
}
