import ArgumentParser
import AudioFileStream
import AudioRecording
import AudioStreamProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `audiostream record INPUT -o TEMPLATE`: the input's packets into files of its own codec, without re-encoding.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the input into files of its own codec, split by time or title; one JSON line per file.",
        discussion: """
            TEMPLATE names each file: strftime fields (%Y, %H …) of the file's start in local time, {stream}, \
            {n} (the file's number, 3 digits), {title}, {artist} and {ext} (the file's container). Its extension \
            chooses the container (.mp3, .m4a or .aac for AAC, .ogg/.opus, .flac, .ac3, .wav); without one, or \
            for a codec it cannot hold, each file takes its codec's own. \
            Files are written as NAME.part and renamed when complete. Ctrl-C finishes the file under way.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: .short, help: ArgumentHelp("The name of each file.", valueName: "TEMPLATE"))
    var output: String

    @Option(help: ArgumentHelp(
        "End a file on every wall-clock multiple of this many seconds of audio (3600: on the hour).",
        valueName: "SECONDS"))
    var every: Int?

    @Flag(help: "End a file where the now-playing title changes.")
    var splitOnTitle = false

    @Option(help: ArgumentHelp(
        "The wall-clock time of the input's first sample, as seconds since 1970 (default: now).",
        valueName: "SECONDS"))
    var startTime: Double?

    @Option(help: "The stream's name, for {stream} (default: the input's file name without extension).")
    var stream: String?

    func validate() throws {
        if let every, every < 1 { throw ValidationError("--every must be 1 or more") }
        do { _ = try PieceNameTemplate(output) } catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let settings = RecordingSettings(
            template: try PieceNameTemplate(output), stream: stream ?? defaultStreamName, every: every,
            splitOnTitle: splitOnTitle)
        let recorder = StreamRecorder(settings: settings, clockOrigin: startTime ?? WallClock.now())
        let out = BufferedOutput()
        var failure: (any Error)?
        recorder.finished = { piece in
            out.line(Self.json(piece).text)
            try? out.flush()
        }
        recorder.noted = { Diagnostics.warn("record: \($0)") }
        recorder.failed = { error in
            failure = error
            Diagnostics.warn("record: \(error)")
        }
        Interrupt.install()
        do {
            try input.parse { event in
                recorder.handle(event)
            } metadata: { metadata, offset in
                switch metadata {
                case .icy(let icy): if let tags = icy.tags { recorder.noteTags(tags, at: offset) }
                case .station(let station): recorder.setStation(station.name)
                }
            } eachChunk: {
                if Interrupt.requested { throw Interrupted() }
            }
        } catch is Interrupted {
        } catch {
            // The packets so far are kept: a network input may end by an error, or by Ctrl-C reaching its reader.
            recorder.finish()
            try out.flush()
            if Interrupt.requested { return }
            throw error
        }
        recorder.finish()
        try out.flush()
        if let failure { throw CommandFailure("record: \(failure)") }
    }

    private var defaultStreamName: String {
        let name = input.input.split(separator: "/").last.map(String.init) ?? input.input
        return name.split(separator: ".").first.map(String.init) ?? name
    }

    static func json(_ piece: RecordedPiece) -> JSON {
        .object([
            ("path", .string(piece.path)),
            ("start", .string(WallClock.iso8601(piece.start, milliseconds: true))),
            ("duration", .double(piece.duration)),
            ("packets", .number(piece.packets)),
            ("title", .optional(piece.title, JSON.string)),
        ])
    }

    private struct Interrupted: Error {}
}
