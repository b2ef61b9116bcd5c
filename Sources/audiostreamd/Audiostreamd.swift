import ArgumentParser
import AudioStreamProtocol
import Foundation
import Glibc
import Logging
import StreamDaemon

@main
struct Audiostreamd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiostreamd",
        abstract: "Parse audio streams once and serve their packets, PCM and metadata on Unix sockets.",
        discussion: "Runs in the foreground and logs to standard error. SIGHUP reloads the configuration; "
            + "SIGTERM or SIGINT stop the daemon after subscribers have taken what is queued.",
        version: packageVersion)

    @Option(name: .long, help: "The configuration file (YAML).")
    var config: String

    @Flag(name: .long, help: "Check the configuration and exit: 0 when it is valid.")
    var check = false

    @Option(name: .long, help: "The least severe log level written: trace, debug, info, notice, warning, error.")
    var logLevel: Logger.Level = .info

    static func main() {
        SignalRouter.holdSignals()
        main(nil)
    }

    func run() throws {
        if check {
            do {
                let checked = try Daemon.check(configFile: config)
                print("\(config): OK, \(checked.streams.count) stream(s)")
                return
            } catch {
                printError("\(error)")
                throw ExitCode.failure
            }
        }
        let level = logLevel
        let journal = JournalLogHandler.isStandardErrorJournal(environment: ProcessInfo.processInfo.environment)
        LoggingSystem.bootstrap { label in
            var handler = EscapingLogHandler(
                wrapping: journal ? JournalLogHandler() : StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let status = Daemon.run(configFile: config)
        if status != 0 { throw ExitCode(status) }
    }

    private func printError(_ message: String) {
        let line = Array("\(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
