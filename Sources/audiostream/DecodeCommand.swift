import ArgumentParser
import AudioFileStream
import AudioDecoding

extension PCMSampleFormat: ExpressibleByArgument {}

/// `audiostream decode INPUT`: any stream the parser reads to PCM, as a WAV file or raw samples on standard output.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: """
            Decode to PCM (gapless): MPEG audio, AAC, Opus, Vorbis, FLAC, ALAC, AC-3, E-AC-3 and PCM containers; \
            a WAV file, or raw interleaved samples on standard output.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: [.short, .customLong("output")], help: "Write a WAV file at this path.")
    var output: String?

    @Flag(help: "Write raw interleaved PCM in native byte order to standard output.")
    var raw = false

    @Option(help: "The sample format: s16 or f32.")
    var format: PCMSampleFormat = .int16

    func validate() throws {
        guard (output != nil) != raw else { throw ValidationError("give either -o FILE or --raw") }
    }

    func run() throws {
        let rawOutput = raw ? BufferedOutput() : nil
        var wav: WAVWriter?
        var decodedFormat: PCMFormat?
        var failure: Error?
        let decoder = StreamDecoder(sampleFormat: format) { event in
            switch event {
            case .format(let format):
                decodedFormat = format
                guard let output, failure == nil else { return }
                if let wav, wav.format != format {
                    failure = CommandFailure("the format changes from \(wav.format) to \(format); a WAV file holds one, use --raw")
                } else if wav == nil {
                    do { wav = try WAVWriter(path: output, format: format) } catch { failure = error }
                }
            case .pcm(let buffer):
                guard failure == nil else { return }
                rawOutput?.write(buffer.bytes)
                wav?.write(buffer.bytes)
            case .error(let error):
                Diagnostics.warn("decode error: \(error)")
            case .unsupportedFormat(let formatID):
                Diagnostics.warn("no decoder for '\(formatID)' packets; they are left out")
            }
        }
        try input.parse(handler: decoder.consume)
        decoder.finish()
        if let failure {
            // Keep what was written a valid file: the audio up to the change.
            try wav?.close()
            throw failure
        }
        guard decodedFormat != nil else { throw CommandFailure("\(input.input): no audio decoded") }
        try rawOutput?.flush()
        try wav?.close()
    }
}
