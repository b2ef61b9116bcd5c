import AudioFileStream
import AudioFileWriting

/// Parts of fragmented MP4 as CMAF makes them (ISO/IEC 23000-19 chunks): each a `moof` stating its packets'
/// sizes and frames from its decode time, then an `mdat` holding them. The initialization section's edit leaves
/// out the priming. What plays, where it changed, leads the part as an `emsg` holding ID3 ("Carriage of ID3 Timed
/// Metadata in CMAF", AOM).
struct CMAFPackager: HLSPackager {
    let initSection: [UInt8]?
    private let timescale: UInt32
    private let leadingTrim: Int64
    /// The `emsg` that leads the part under way, if any, and the number of the last one.
    private var event: [UInt8] = []
    private var eventID: UInt32 = 0
    /// `mfhd`'s sequence number, 1 for the first fragment.
    private var sequence: UInt32 = 0
    private var time: Int64 = 0
    private var data: [UInt8] = []
    private var samples: [(size: UInt32, frames: UInt32)] = []

    /// Parts of `track`'s packets, whose first `leadingTrim` frames are the encoder's priming.
    /// - Throws: `WriteError.unsupportedFormat` when an MP4 track cannot hold the codec or its cookie.
    init(track: TrackFormat, leadingTrim: Int64) throws {
        initSection = try FragmentedMP4Header.bytes(track: track, leadingTrim: leadingTrim)
        timescale = UInt32(track.format.sampleRate)
        self.leadingTrim = leadingTrim
    }

    mutating func startPart(at time: Int64, startsSegment: Bool, nowPlaying: HLSNowPlaying?) {
        self.time = time
        guard let nowPlaying, let tag = try? ID3v2TagWriter().tag(frames: nowPlaying.id3Frames) else { return }
        eventID &+= 1
        var builder = MP4BoxBuilder()
        builder.fullBox("emsg", version: 1) {
            $0.uint32(timescale)
            // On the track's presentation timeline, which the edit starts after the priming.
            $0.uint64(UInt64(max(0, time - leadingTrim)))
            $0.uint32(.max)  // lasts until the next
            $0.uint32(eventID)
            $0.append(Array("https://aomedia.org/emsg/ID3".utf8) + [0])
            $0.uint8(0)  // value: empty
            $0.append(tag)
        }
        event = builder.bytes
    }

    mutating func append(_ packet: AudioPacket) throws {
        guard let size = UInt32(exactly: packet.bytes.count), let frames = UInt32(exactly: packet.frames) else {
            throw WriteError.unsupportedFormat("a packet of \(packet.bytes.count) bytes and \(packet.frames) frames")
        }
        data += packet.bytes
        samples.append((size, frames))
    }

    mutating func finishPart() -> [UInt8] {
        sequence &+= 1
        var builder = MP4BoxBuilder()
        var dataOffsetField = 0
        builder.box("moof") {
            $0.fullBox("mfhd") { $0.uint32(sequence) }
            $0.box("traf") {
                $0.fullBox("tfhd", flags: 0x02_0000) { $0.uint32(1) }  // track 1, offsets from the moof
                $0.fullBox("tfdt", version: 1) { $0.uint64(UInt64(time)) }
                // Flags: a data offset, then each sample's duration and size.
                $0.fullBox("trun", flags: 0x301) {
                    $0.uint32(UInt32(samples.count))
                    dataOffsetField = $0.bytes.count
                    $0.uint32(0)
                    for sample in samples {
                        $0.uint32(sample.frames)
                        $0.uint32(sample.size)
                    }
                }
            }
        }
        var moof = builder.bytes
        // The first sample follows the moof and the mdat's 8-byte header.
        moof.replaceSubrange(dataOffsetField..<dataOffsetField + 4, with: [UInt8](bigEndian: UInt32(moof.count + 8)))
        let bytes = event + moof + [UInt8](bigEndian: UInt32(8 + data.count)) + Array("mdat".utf8) + data
        event = []
        data = []
        samples.removeAll(keepingCapacity: true)
        return bytes
    }
}
