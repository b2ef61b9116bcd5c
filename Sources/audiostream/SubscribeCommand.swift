import ArgumentParser
import AudioStreamProtocol
import Foundation

/// `audiostream subscribe SOCKET`: a daemon stream's messages as `events` JSON lines, until its end.
struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe to an audiostreamd stream and print what arrives as JSON lines.",
        discussion: "Lines follow the schema of `audiostream events`, plus {\"event\":\"pcm\",…} for decoded "
            + "audio. Exits 0 after the stream's end event, 1 if the connection closes before it.")

    @Argument(help: "The stream's socket, as configured for audiostreamd.")
    var socket: String

    @Option(help: "What to receive, comma-separated: packets, pcm, metadata, properties.")
    var kinds = "packets,metadata,properties"

    @Option(help: "PCM sample format: s16 or f32 (little-endian, interleaved).")
    var format = "s16"

    @OptionGroup var shape: PCMShapeOptions

    @Option(help: "Seconds of recent packets to receive at once on connecting.")
    var burst = 0.0

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Write the raw packet bytes (or, with pcm alone, the PCM) to this file.",
        discussion: "With `-` or a path naming standard output (/dev/stdout), standard output carries the payload "
            + "alone and the JSON lines go to standard error."))
    var output: String?

    @Flag(help: "Print no JSON lines (the payload still goes to --output).")
    var quiet = false

    @Option(name: .customLong("artwork"), help: ArgumentHelp(
        "Receive the pictures of the stream's tags and write each new one to FILE, replacing the last.",
        discussion: "With `-` each new picture goes to standard output in turn and the JSON lines to standard error.",
        valueName: "FILE"))
    var artworkPath: String?

    func validate() throws {
        let names = kinds.split(separator: ",").map(String.init)
        guard !names.isEmpty, names.allSatisfy({ Hello.Kind(rawValue: $0) != nil }) else {
            throw ValidationError("--kinds takes packets, pcm, metadata, properties and levels, comma-separated")
        }
        guard WirePCMEncoding(name: format) != nil else { throw ValidationError("--format must be s16 or f32") }
        guard burst >= 0 else { throw ValidationError("--burst must be 0 or more seconds") }
        if output != nil && names.contains("packets") == names.contains("pcm") {
            throw ValidationError("--output needs exactly one of packets or pcm in --kinds")
        }
        if let output, let artworkPath, BufferedOutput.namesStandardOutput(output),
           BufferedOutput.namesStandardOutput(artworkPath)
        {
            throw ValidationError("--output and --artwork cannot both be standard output")
        }
    }

    func run() throws {
        let hello = Hello(
            kinds: Set(kinds.split(separator: ",").compactMap { Hello.Kind(rawValue: String($0)) }),
            pcm: PCMRequest(encoding: WirePCMEncoding(name: format)!, sampleRate: shape.rate, channels: shape.channels),
            burstSeconds: burst, artwork: artworkPath != nil)
        let client: WireClient
        do {
            client = try WireClient(path: socket)
            try client.send(.hello, json: hello.json)
        } catch {
            throw CommandFailure("\(error)")
        }
        let media = try output.map(BufferedOutput.opening)
        // Standard output carries a payload that names it alone, and the lines go to standard error.
        let payloadIsStandardOutput = [output, artworkPath].compactMap { $0 }
            .contains(where: BufferedOutput.namesStandardOutput)
        let lines: BufferedOutput? = quiet ? nil : BufferedOutput(standardError: payloadIsStandardOutput)
        while let message = try client.receive() {
            switch message {
            case .json(.event, let text):
                lines?.line(text)
                if Self.eventName(text) == "end" {
                    try lines?.flush()
                    try media?.flush()
                    return
                }
            case .json(.error, let text):
                throw CommandFailure("the daemon refused: \(text)")
            case .json:
                break
            case .packet(let packet):
                lines?.line(EventJSON.packet(packet).text)
                packet.bytes.withUnsafeBytes { media?.write($0) }
            case .pcm(let pcm):
                lines?.line(EventJSON.pcm(pcm).text)
                pcm.samples.withUnsafeBytes { media?.write($0) }
            case .artwork(let artwork):
                lines?.line(artwork.description)
                if let artworkPath {
                    let file = try BufferedOutput.opening(artworkPath)
                    artwork.picture.withUnsafeBytes { file.write($0) }
                    try file.flush()
                }
            }
            if !client.hasBufferedBytes {
                try lines?.flush()
                try media?.flush()
            }
        }
        try lines?.flush()
        try media?.flush()
        throw CommandFailure("the connection closed before the end of the stream")
    }

    /// The `event` of an event's JSON text: the end is known by its name, whatever else it says.
    private static func eventName(_ text: String) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["event"] as? String
    }
}
