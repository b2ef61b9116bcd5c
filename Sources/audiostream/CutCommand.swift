import ArgumentParser
import AudioFileStream
import AudioFileWriting
import AudioRecording

/// `audiostream cut INPUT --from SECONDS --to SECONDS -o OUT`: a time range as a file of the input's codec.
struct CutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cut",
        abstract: "Write a time range of the input as a file of its own codec, without re-encoding.",
        discussion: """
            OUT's extension chooses the container (.mp3, .m4a or .aac for AAC, .ogg/.opus, .flac, .ac3, .wav). \
            The file decodes to the range's very samples where the container states trims (MP3, M4A, Opus, \
            Vorbis), for PCM, and for FLAC, whose frames the range splits are made anew losslessly; ADTS, AC-3 \
            and MPEG Layer I/II hold the whole packets the range touches, which standard error tells.
            """)

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("Where the range starts: seconds or HH:MM:SS.mmm (default: the start).", valueName: "TIME"))
    var from: TimeArgument?

    @Option(help: ArgumentHelp("Where the range ends: seconds or HH:MM:SS.mmm (default: the end).", valueName: "TIME"))
    var to: TimeArgument?

    @Option(name: .short, help: ArgumentHelp("The file to write, or - for standard output (in the codec's own container).",
                                             valueName: "OUT"))
    var output: String

    func validate() throws {
        // --from is the start when omitted.
        if let to, from?.seconds ?? 0 >= to.seconds {
            throw ValidationError("--from \(from?.seconds ?? 0) s is not before --to \(to) s")
        }
        _ = try OutputFile.container(for: output)
    }

    func run() throws {
        let cut = StreamCut(from: from?.seconds ?? 0, to: to?.seconds, container: try OutputFile.container(for: output),
                            file: try OutputFile.open(output))
        Interrupt.install()
        do {
            try input.parse(writing: output, cut.handle)
        } catch {
            cut.cancel()
            throw error
        }
        let result = try cut.finish()
        if !result.isExact {
            let seconds = { (frames: Int64) in (Double(frames) / result.sampleRate * 1000).rounded() / 1000 }
            Diagnostics.warn("cut: .\(result.container.rawValue) states no trims: \(output) holds whole packets, "
                + "from \(seconds(result.frames.lowerBound)) s to \(seconds(result.frames.upperBound)) s")
        }
    }
}
