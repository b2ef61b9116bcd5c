import AudioFileStream
import AudioFileWriting

/// Parts of packed audio (RFC 8216bis §3.1.3): the codec's frames, AAC's each behind an ADTS header, led by an
/// ID3 tag with the first sample's time and, where it changed at a segment's start, what plays.
///
/// In AAC every part leads with its time: players that start at a part need it (Chromium's HLS cannot parse one
/// without). In MP3, AC-3 and E-AC-3 only a segment's first part does: a tag amid their frames costs the frame
/// after it in ffmpeg's reading of a segment, where ADTS is read past one.
struct PackedAudioPackager: HLSPackager {
    private let sampleRate: Double
    /// For AAC: the header of each access unit.
    private var adts: ADTSHeader?
    private var bytes: [UInt8] = []

    var initSection: [UInt8]? { nil }

    /// - Throws: `WriteError.unsupportedFormat` when packed audio cannot carry the format.
    init(track: TrackFormat) throws {
        guard HLSContainer.packed.canCarry(track.format) else {
            throw WriteError.unsupportedFormat("packed audio cannot carry \(track.format.codecName) audio")
        }
        sampleRate = track.format.sampleRate
        adts = track.format.formatID == AudioFormatID.mpeg4AAC ? ADTSHeader(format: track.format) : nil
    }

    mutating func startPart(at time: Int64, startsSegment: Bool, nowPlaying: HLSNowPlaying?) {
        guard startsSegment || adts != nil else { return }
        bytes = ID3TimestampTag.tag(frames: time, sampleRate: sampleRate, nowPlaying: nowPlaying)
    }

    mutating func append(_ packet: AudioPacket) throws {
        if var header = adts {
            guard header.describe(unitLength: packet.bytes.count) else {
                throw WriteError.unsupportedFormat("an access unit of \(packet.bytes.count) bytes is longer than ADTS "
                    + "frames")
            }
            bytes += header.bytes
            adts = header
        }
        bytes += packet.bytes
    }

    mutating func finishPart() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}
