import AudioFileStream
import AudioFileWriting

/// How a stream's packets reach HTTP listeners and Icecast: as the bytes players expect of the codec, whatever
/// container the source used (an M4A's AAC goes out as ADTS, an Ogg Opus station as Ogg pages of our own).
protocol ListenerFraming {
    /// The mount's MIME type.
    var contentType: String { get }
    /// Whether ICY metadata blocks may go between the bytes: not in Ogg, whose comment headers carry the
    /// titles (Icecast does the same).
    var carriesICYMetadata: Bool { get }
    /// What a listener needs before any packet, and again whenever it changes (an Ogg link's header pages,
    /// FLAC's `fLaC` and metadata blocks); nil when packets stand alone.
    var header: [UInt8]? { get }
    /// The bytes a listener gets for one packet that holds the stream's frames up to `endFrame`; nil when they
    /// are the packet's own bytes.
    mutating func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]?
    /// What ends the bytes a listener got, before another header or the end of the stream (an Ogg link's
    /// end-of-stream page); nil when nothing needs to.
    mutating func trailer() -> [UInt8]?
    /// Whether listeners are told a playlist segment's trims (an Ogg Opus link's pre-skip), so they may get the
    /// packets its priming drops.
    var statesSegmentTrims: Bool { get }
}

extension ListenerFraming {
    var carriesICYMetadata: Bool { true }
    var statesSegmentTrims: Bool { false }
    var header: [UInt8]? { nil }
    func trailer() -> [UInt8]? { nil }
}

/// Chooses a stream's framing from what the parser announced.
enum ListenerFramings {
    /// The framing for packets of `format`, with the stream's magic cookie and the fields of its latest Vorbis
    /// comments (which Ogg and FLAC headers carry), in the playlist `segment` if any; nil when listeners cannot be
    /// served this codec.
    static func framing(for format: AudioStreamBasicDescription, cookie: [UInt8], comments: [RawTagField],
                        serial: UInt32, segment: ListenerSegment?) -> (any ListenerFraming)? {
        switch format.formatID {
        case AudioFormatID.mpegLayer1, AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer3:
            SelfFramedPackets(contentType: "audio/mpeg")
        case AudioFormatID.ac3: SelfFramedPackets(contentType: "audio/ac3")
        case AudioFormatID.enhancedAC3: SelfFramedPackets(contentType: "audio/eac3")
        case AudioFormatID.mpeg4AAC: ADTSFraming(format: format)
        case AudioFormatID.opus, AudioFormatID.vorbis:
            OggFraming(track: TrackFormat(format: format, cookie: cookie), comments: comments, serial: serial,
                       segment: segment)
        case AudioFormatID.flac: FLACStreamFraming(streamInfo: cookie, comments: comments)
        default: nil
        }
    }
}

/// Codecs whose packets are whole frames with their own sync headers (MPEG audio, AC-3): a listener gets them
/// as they are.
struct SelfFramedPackets: ListenerFraming {
    let contentType: String

    func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? { nil }
}

/// A playlist's segment as listeners get it: where it starts among the stream's frames, and its trims.
struct ListenerSegment {
    let table: PacketTableInfo
    let startFrame: Int64
}
