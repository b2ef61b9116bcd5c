import ArgumentParser
import AudioDecoding

/// `--rate` and `--channels`: PCM resampled and remixed to a fixed shape, as ffmpeg's `-ar` and `-ac` do.
struct PCMShapeOptions: ParsableArguments {
    @Option(help: "Resample PCM to this rate in Hz (8000 to 192000), as ffmpeg -ar does; default: the stream's.")
    var rate: Int?

    @Option(help: "Mix PCM to this many channels (1 or 2), as ffmpeg -ac does; default: the stream's.")
    var channels: Int?

    func validate() throws {
        if let rate, !PCMTarget.sampleRates.contains(rate) {
            throw ValidationError("--rate must be from 8000 to 192000 Hz, not \(rate)")
        }
        if let channels, !PCMTarget.channelCounts.contains(channels) {
            throw ValidationError("--channels must be 1 or 2, not \(channels)")
        }
    }
}
