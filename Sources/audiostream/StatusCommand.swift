import ArgumentParser
import AudioStreamProtocol
import Foundation

/// `audiostream status CONTROL_SOCKET`: what a running daemon is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show a running audiostreamd's streams and subscribers, asked on its control socket.")

    @Argument(help: "The daemon's control socket (the `control` key of its configuration).")
    var socket: String

    @Flag(help: "Print the daemon's answer as JSON instead of a summary.")
    var json = false

    func run() throws {
        let answer: String
        do {
            let client = try WireClient(path: socket)
            try client.send(.request, json: WireProtocol.statusRequest)
            guard case .json(let type, let text) = try client.receive() else {
                throw CommandFailure("no answer from \(socket)")
            }
            guard type == .response else {
                let refusal = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
                throw CommandFailure("\(socket): \(refusal?["error"] as? String ?? text)")
            }
            answer = text
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(error)")
        }
        let out = BufferedOutput()
        if json {
            out.line(answer)
        } else {
            let status = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any] ?? [:]
            for line in StatusSummary(status).lines { out.line(line) }
        }
        try out.flush()
    }
}
