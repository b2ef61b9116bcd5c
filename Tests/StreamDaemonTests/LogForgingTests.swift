import AudioStreamProtocol
import Foundation
import Logging
import StreamDaemon
import Testing

/// Text from outside reaches the log escaped, so it can never write a line of its own (at emergency priority, say).
@Suite struct LogForgingTests {
    static let forgedKind = "x\n<0>audiostreamd: FORGED"

    /// With standard error as the journal's stream (`<N>` lines) and as a plain stream.
    @Test(arguments: [true, false])
    func aHelloCannotForgeALogLine(journal: Bool) throws {
        let folder = try DaemonHarness.makeFolder()
        let daemon = try DaemonHarness(config: DaemonHarness.standardInputConfig, folder: folder,
                                       environment: journal ? DaemonHarness.journalEnvironment(in: folder) : [:])
        try daemon.waitForSocket("radio.sock")
        let client = try WireClient(path: daemon.path("radio.sock"))
        try client.send(.hello, json: .object([("protocol", .int(1)), ("kinds", .array([.string(Self.forgedKind)]))]))
        _ = try client.receive()
        try daemon.waitUntil("the refusal in the log") { daemon.log.contains("refused a subscriber") }

        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("<0>") || $0.contains("FORGED") && !$0.contains("refused") }, "\(lines)")
        #expect(lines.contains { $0.contains(#"unknown kind 'x\n<0>audiostreamd: FORGED'"#) }, "\(lines)")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(EscapingLogHandler.escaped("a\nb\r\tc\u{1b}[31m\u{7f}\u{85}\0") == #"a\nb\r\tc\x1b[31m\x7f\x85\x00"#)
        #expect(EscapingLogHandler.escaped("Café — 東京") == "Café — 東京")
    }
}
