import ArgumentParser
import AudioFileStream
import AudioFileWriting
import AudioRecording

/// `audiostream concat INPUT… -o OUT`: files of one codec joined into one, without re-encoding.
struct ConcatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concat",
        abstract: "Join files of one codec and one set of parameters into one file, without re-encoding.",
        discussion: """
            OUT's extension chooses the container. FLAC and PCM join exactly; Ogg Opus and Vorbis make each \
            input a chain link with its own trims. Cuts and archive pieces of one stream join exactly in any \
            container: the lead-in an input begins with, which repeats the end of the one before, is dropped. \
            Other inputs keep the trims between them (an MP3 encoder's padding and priming) in the audio: \
            standard error gives their frames at each join. Tags come from the first input, unless --set names \
            them.
            """)

    @Argument(help: "The files to join, in order.")
    var inputs: [String]

    @Option(name: .short, help: ArgumentHelp("The file to write, or - for standard output (in the codec's own container).",
                                             valueName: "OUT"))
    var output: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Tag OUT with each common KEY set to VALUE, rather than with "
        + "the first input's tags.", valueName: "KEY=VALUE"))
    var set: [String] = []

    func validate() throws {
        guard inputs.count >= 2 else { throw ValidationError("concat joins two inputs or more") }
        _ = try OutputFile.container(for: output)
        _ = try tags()
    }

    /// The tags --set names, or nil.
    private func tags() throws -> NormalizedTags? {
        guard !set.isEmpty else { return nil }
        var tags = NormalizedTags()
        for setting in set {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let key = CommonTagKey(rawValue: parts[0]) else {
                throw ValidationError("--set takes KEY=VALUE with a common key (title, artist …), not '\(setting)'")
            }
            do { try key.set(parts[1], in: &tags) } catch { throw ValidationError("\(error)") }
        }
        return tags
    }

    func run() throws {
        let join = StreamJoin(container: try OutputFile.container(for: output), file: try OutputFile.open(output),
                              tags: try tags())
        Interrupt.install()
        do {
            for input in inputs {
                join.beginStream(named: input)
                // Each input as `audiostream probe INPUT` reads it, with its errors.
                try InputOptions.parse([input]).parse(writing: output, join.handle)
                try join.endStream()
            }
        } catch {
            join.cancel()
            throw error
        }
        let result = try join.finish()
        for (index, frames) in result.joins.enumerated() where frames != 0 {
            let between = "between \(inputs[index]) and \(inputs[index + 1])"
            Diagnostics.warn(frames.map { "concat: \($0) frames of encoder padding and priming stay \(between)" }
                ?? "concat: the encoder's padding and priming stay \(between), which the inputs do not state")
        }
    }
}
