import Foundation
import StreamDaemon
import Testing

/// `audiostream status` as a newcomer uses it: on the wrong socket.
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
}
