import AudioDecoding
import AudioFileStream
import AudioFileWriting

/// The integer samples of single FLAC frames, decoded by libavcodec: what a cut keeps of a frame it splits.
/// Float output holds every sample of up to 24 bits exactly.
struct FLACFrameSamples {
    let track: TrackFormat
    let bitsPerSample: Int

    /// For FLAC tracks of at most 24 bits (STREAMINFO's depth); nil otherwise.
    init?(track: TrackFormat) {
        guard track.format.formatID == AudioFormatID.flac,
              let info = track.cookie.withUnsafeBytes({ FLACStreamInfo($0) }), info.bitsPerSample <= 24 else { return nil }
        self.track = track
        bitsPerSample = info.bitsPerSample
    }

    /// The frame `packet` of `frames` frames made anew holding only the frames in `kept`.
    func frame(_ packet: UnsafeRawBufferPointer, frames: Int64, keeping kept: Range<Int64>) throws -> [UInt8] {
        var samples: [Int32] = []
        let scale = Float(1 << (bitsPerSample - 1))
        let decoder = StreamDecoder(sampleFormat: .float32) { event in
            guard case .pcm(let buffer) = event else { return }
            samples += buffer.bytes.bindMemory(to: Float.self).map { Int32(($0 * scale).rounded()) }
        }
        decoder.consume(.property(.dataFormat, .format(track.format)))
        decoder.consume(.property(.magicCookieData, .data(track.cookie)))
        PacketBatch.withPacket(AudioPacket(bytes: packet, frames: frames, offset: 0), format: track.format, index: 0) {
            decoder.consume(.packets($0))
        }
        decoder.finish()
        let channels = Int(track.format.channelsPerFrame)
        guard samples.count == Int(frames) * channels else {
            throw WriteError.unsupportedFormat("a FLAC frame of \(frames) frames decoded to \(samples.count / max(channels, 1))")
        }
        return try FLACVerbatimFrame.frame(of: Array(samples[Int(kept.lowerBound) * channels..<Int(kept.upperBound) * channels]),
                                           channels: channels, bitsPerSample: bitsPerSample, like: packet)
    }
}
