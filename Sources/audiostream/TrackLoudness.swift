import AudioDecoding
import AudioFileStream
import AudioLoudness

/// One file's loudness as ReplayGain 2.0 takes it: decoded whole (gapless) and measured by an exact meter.
struct TrackLoudness {
    let file: String
    let fileType: AudioFileType?
    /// The codec of its first packets.
    let formatID: FourCharCode?
    /// The meter, kept for the album's figures.
    let meter: LoudnessMeter
    let peak: Double

    var integrated: Double { meter.integrated }
    var range: Double { meter.range }

    /// Decodes and measures `file`; its peak is the true peak when `truePeak`, else the sample peak.
    /// - Throws: `CommandFailure` when it cannot be parsed or decoded, or holds no audio.
    init(file: String, truePeak: Bool) throws {
        self.file = file
        var meter: LoudnessMeter?
        var failure: Error?
        var formatID: FourCharCode?
        let decoder = StreamDecoder(sampleFormat: .float32) { event in
            guard failure == nil else { return }
            switch event {
            case .pcm(let pcm):
                let (channels, rate) = (pcm.format.channels, pcm.format.sampleRate)
                do {
                    if let meter {
                        try meter.change(channels: channels, sampleRate: rate)
                    } else {
                        meter = try LoudnessMeter(channels: channels, sampleRate: rate, truePeak: truePeak)
                    }
                } catch {
                    failure = CommandFailure("\(file): \(error)")
                    return
                }
                meter?.add(pcm.bytes.assumingMemoryBound(to: Float.self))
            case .unsupportedFormat(let formatID):
                failure = CommandFailure("\(file): no decoder for \(AudioFormatID.name(of: formatID)) packets")
            case .error(let error):
                // A packet the codec rejects is left out, as a player would.
                Diagnostics.warn("\(file): decode error: \(error)")
            case .format:
                break
            }
        }
        let stream: AudioFileStream
        do {
            stream = try InputOptions.parse([file]).parse { event in
                if case .property(.dataFormat, .format(let format)) = event, formatID == nil {
                    formatID = format.formatID
                }
                decoder.consume(event)
            }
        } catch {
            throw CommandFailure("\(file): \(error)")
        }
        decoder.finish()
        if let failure { throw failure }
        guard let meter else { throw CommandFailure("\(file): no audio decoded") }
        self.meter = meter
        self.formatID = formatID
        if case .fileType(let type)? = try? stream.property(.fileFormat) { fileType = type } else { fileType = nil }
        peak = (0..<meter.channels).map { truePeak ? meter.truePeak(channel: $0) : meter.samplePeak(channel: $0) }
            .max() ?? 0
    }
}
