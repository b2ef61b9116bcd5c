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
            a WAV file, or raw interleaved samples, to a file or standard output (-o -).
            """)

    @OptionGroup var input: InputOptions

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Write a WAV file (or, with --raw, the raw samples) at this path; - is standard output.",
        discussion: "On a pipe a WAV header cannot be rewritten at the end, so its sizes say unknown (0xFFFFFFFF)."))
    var output: String?

    @Flag(help: "Write raw interleaved PCM in native byte order, to -o or else to standard output.")
    var raw = false

    @Option(help: "The sample format: s16 or f32.")
    var format: PCMSampleFormat = .int16

    @OptionGroup var shape: PCMShapeOptions

    func validate() throws {
        guard output != nil || raw else { throw ValidationError("give -o FILE (- for standard output) or --raw") }
    }

    func run() throws {
        let rawOutput = raw ? try BufferedOutput.opening(output ?? "-") : nil
        let wavPath = raw ? nil : output
        var wav: WAVWriter?
        var decoded = false
        var failure: Error?
        let write = { (buffer: PCMBuffer) in
            guard failure == nil else { return }
            if let wavPath, wav.map({ $0.format.isLaidOut(as: buffer.format) }) != true {
                if let wav {
                    failure = CommandFailure(
                        "the format changes from \(wav.format) to \(buffer.format); a WAV file holds one, use --raw")
                    return
                }
                do { wav = try WAVWriter(path: wavPath, format: buffer.format) } catch { failure = error; return }
            }
            rawOutput?.write(buffer.bytes)
            wav?.write(buffer.bytes)
        }
        let target = PCMTarget(sampleFormat: format, sampleRate: shape.rate, channels: shape.channels)
        let resampler = target.converts ? PCMResampler(target: target) : nil
        let decoder = StreamDecoder(sampleFormat: resampler == nil ? format : .float32) { event in
            switch event {
            case .format:
                decoded = true
            case .pcm(let buffer):
                guard let resampler else { return write(buffer) }
                do { try resampler.convert(buffer, body: write) } catch { failure = failure ?? error }
            case .error(let error):
                Diagnostics.warn("decode error: \(error)")
            case .unsupportedFormat(let formatID):
                Diagnostics.warn("no decoder for \(AudioFormatID.name(of: formatID)) packets; they are left out")
            }
        }
        // Once the output is gone (a closed pipe), there is no reason to read on.
        try input.parse(handler: decoder.consume, eachChunk: {
            try rawOutput?.throwIfFailed()
            try wav?.throwIfFailed()
        })
        decoder.finish()
        resampler?.finish(body: write)
        if let failure {
            // Keep what was written a valid file: the audio up to the change.
            try wav?.close()
            throw failure
        }
        guard decoded else { throw CommandFailure("\(input.input): no audio decoded") }
        try rawOutput?.flush()
        try wav?.close()
    }
}
