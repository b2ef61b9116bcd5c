import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// `audiostream scan INPUT`: parse as fast as possible and print the totals; what benchmarks run.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Parse the whole input as fast as possible and print {packets, frames, bytes, seconds}.")

    @OptionGroup var input: InputOptions

    func run() throws {
        var seconds = 0.0
        let stream = try input.parse { event in
            guard case .packets(let batch) = event, batch.format.sampleRate > 0 else { return }
            seconds += Double(batch.frameCount) / batch.format.sampleRate
        }
        let counted = stream.counted
        let out = BufferedOutput()
        out.line(JSON.object([
            ("packets", .number(counted.packets)), ("frames", .number(counted.frames)), ("bytes", .number(counted.bytes)),
            ("seconds", .double(seconds)),
        ]).text)
        try out.flush()
    }
}
