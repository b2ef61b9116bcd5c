import AudioFileStream
import AudioStreamProtocol
import NIOCore

/// What a stream's HTTP listeners and Icecast outputs are told, worked out once per stream from its pipeline's
/// events: the response head's content type and station (`MountInfo`), the header their bytes start with, each
/// packet as the codec's framing gives it, and the title of their ICY metadata blocks.
struct ListenerAnnouncements {
    let streamName: String
    private var format: AudioStreamBasicDescription?
    private var cookie: [UInt8] = []
    private var comments: [RawTagField] = []
    private var station: HTTPStreamInfo?
    private var framing: (any ListenerFraming)?
    /// Set when the format, cookie or comments changed: the framing is chosen again before the next packet, once
    /// all of a new link's headers are known.
    private var isFramingStale = false
    private var header: [UInt8]?
    private var mountInfo: MountInfo?
    /// What listeners were last told plays.
    private(set) var nowPlaying: NowPlaying?
    /// The serial number of the next Ogg stream made for listeners.
    private var nextSerial = UInt32.random(in: .min ... .max)
    /// The playlist segment under way, and whether it is yet to start a framing (an Ogg link) of its own.
    private var segment: ListenerSegment?
    private var segmentStartsLink = false

    init(streamName: String) {
        self.streamName = streamName
    }

    mutating func noteFormat(_ format: AudioStreamBasicDescription) {
        self.format = format
        isFramingStale = true
    }

    mutating func noteCookie(_ cookie: [UInt8]) {
        self.cookie = cookie
        isFramingStale = true
    }

    /// A tag's fields: Vorbis comments go into the Ogg and FLAC headers listeners get.
    mutating func note(_ metadata: Metadata) {
        guard metadata.source == .vorbisComment else { return }
        comments = metadata.raw
        isFramingStale = true
    }

    /// A playlist's segment starts at the stream's frame `startFrame`, trimmed as `table` says: listeners of an
    /// Ogg mount get it as a link of its own.
    mutating func noteSegment(_ table: PacketTableInfo, startingAt startFrame: Int64) {
        segment = ListenerSegment(table: table, startFrame: startFrame)
        segmentStartsLink = true
        isFramingStale = true
    }

    /// A network source announced its station, or a source without one (nil) took the air.
    mutating func noteStation(_ info: HTTPStreamInfo?) -> HubMessage? {
        station = info
        return updatedMountInfo()
    }

    /// Metadata from any source named what plays: the latest wins, whichever source it came from.
    mutating func note(_ playing: NowPlaying?) -> HubMessage? {
        guard let playing, playing != nowPlaying else { return nil }
        nowPlaying = playing
        return .icyMetadata(ByteBuffer(bytes: ICYMetadataBlock.encode(playing)))
    }

    /// The bytes listeners get for a packet holding the stream's frames up to `endFrame` (nil when they are the
    /// packet's own, none for a segment's lead-in they are not told to trim), after what the hubs must hear
    /// first: a new mount head or header when the framing changed.
    mutating func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64, allocator: ByteBufferAllocator)
        -> (announcements: [HubMessage], bytes: ByteBuffer?)
    {
        var announcements: [HubMessage] = []
        if isFramingStale { announcements = chooseFraming(allocator: allocator) }
        // A segment's lead-in (its packets wholly inside its priming) is for decoders that trim it: listeners who
        // are not told the trims would hear it, from before the segment's start.
        if let segment, framing?.statesSegmentTrims != true,
           endFrame <= segment.startFrame + Int64(segment.table.primingFrames) {
            return (announcements, ByteBuffer())
        }
        let bytes = framing?.frame(packet, endFrame: endFrame).map { allocator.buffer(bytes: $0) }
        return (announcements, bytes)
    }

    /// What ends the bytes listeners got, at the end of the stream (an Ogg link's end-of-stream page).
    mutating func finish(allocator: ByteBufferAllocator) -> HubMessage? {
        framing?.trailer().map { .mountTrailer(allocator.buffer(bytes: $0)) }
    }

    private mutating func chooseFraming(allocator: ByteBufferAllocator) -> [HubMessage] {
        isFramingStale = false
        var previous = framing
        framing = format.flatMap {
            ListenerFramings.framing(for: $0, cookie: cookie, comments: comments, serial: nextSerial, segment: segment)
        }
        var announcements = updatedMountInfo().map { [$0] } ?? []
        let startsLink = segmentStartsLink && framing?.header != nil
        segmentStartsLink = false
        guard framing?.header != header || startsLink else { return announcements }
        header = framing?.header
        nextSerial &+= 1
        if let trailer = previous?.trailer() {
            announcements.insert(.mountTrailer(allocator.buffer(bytes: trailer)), at: 0)
        }
        if let header { announcements.append(.mountHeader(allocator.buffer(bytes: header))) }
        return announcements
    }

    private mutating func updatedMountInfo() -> HubMessage? {
        let info = framing.map {
            MountInfo(streamName: streamName, contentType: $0.contentType, carriesICYMetadata: $0.carriesICYMetadata,
                      station: station)
        }
        guard info != mountInfo else { return nil }
        mountInfo = info
        return .mountInfo(info)
    }
}
