import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// `audiostream packets INPUT`: one CSV row per audio packet.
struct PacketsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packets",
        abstract: "Print one CSV row per audio packet: offset,size,frames.")

    @OptionGroup var input: InputOptions

    func run() throws {
        let out = BufferedOutput()
        out.line("offset,size,frames")
        try input.parse { event in
            guard case .packets(let batch) = event else { return }
            for packet in MessagePackets(batch) {
                out.line("\(packet.offset),\(packet.bytes.count),\(packet.frames)")
            }
        } eachChunk: {
            // A live stream's rows go out as they come; once the reader is gone there is no reason to read on.
            if input.isNetwork { try out.flush() } else { try out.throwIfFailed() }
        }
        try out.flush()
    }
}
