import AudioDecoding
import AudioFileStream
import AudioFileWriting

/// The MD5 of a FLAC piece's decoded samples, which its STREAMINFO states: each packet is decoded by
/// libavcodec as it is written (FLAC decodes fast: a small share of what writing the piece costs).
final class FLACPieceDigest: FLACSamplesDigest {
    private var md5: AudioMD5
    private var decoder: StreamDecoder?
    private let format: AudioStreamBasicDescription
    private var packets: Int64 = 0

    /// For a FLAC track of the depth its STREAMINFO (or DataFormat) states; nil when it states none.
    init?(track: TrackFormat) {
        let streamInfo = track.cookie.withUnsafeBytes { FLACStreamInfo($0) }
        let bitsPerSample = streamInfo?.bitsPerSample ?? Int(track.format.bitsPerChannel)
        guard (4...32).contains(bitsPerSample) else { return nil }
        md5 = AudioMD5(bitsPerSample: bitsPerSample)
        format = track.format
        decoder = StreamDecoder(sampleFormat: .float32) { [unowned self] event in
            guard case .pcm(let buffer) = event else { return }
            md5.update(buffer.bytes.bindMemory(to: Float.self))
        }
        decoder?.consume(.property(.dataFormat, .format(track.format)))
        decoder?.consume(.property(.magicCookieData, .data(track.cookie)))
    }

    func add(_ packet: UnsafeRawBufferPointer, frames: Int64) {
        PacketBatch.withPacket(AudioPacket(bytes: packet, frames: frames, offset: 0), format: format, index: packets) {
            decoder?.consume(.packets($0))
        }
        packets += 1
    }

    /// The digest of every packet added.
    func finish() -> AudioMD5 {
        decoder?.finish()
        decoder = nil
        return md5
    }
}
