import AudioFileStream

/// What a stream's HTTP listeners are told, worked out once per stream from its pipeline's events: the response
/// head's content type and station (`MountInfo`), and the title of their ICY metadata blocks.
///
/// Each method returns the message for the hubs when something changed, nil otherwise.
struct ListenerAnnouncements {
    let streamName: String
    private var fileType: AudioFileType?
    private var station: HTTPStreamInfo?
    private var mountInfo: MountInfo?
    private var nowPlaying: NowPlaying?

    init(streamName: String) {
        self.streamName = streamName
    }

    /// The parser announced the stream's file type.
    mutating func noteFileType(_ type: AudioFileType) -> HubMessage? {
        fileType = type
        return updatedMountInfo()
    }

    /// A network source announced its station.
    mutating func noteStation(_ info: HTTPStreamInfo) -> HubMessage? {
        station = info
        return updatedMountInfo()
    }

    /// Metadata from any source named what plays: the latest wins, whichever source it came from.
    mutating func note(_ playing: NowPlaying?) -> HubMessage? {
        guard let playing, playing != nowPlaying else { return nil }
        nowPlaying = playing
        return .icyMetadata(ICYMetadataBlock.encode(playing))
    }

    private mutating func updatedMountInfo() -> HubMessage? {
        guard let fileType else { return nil }
        let info = MountInfo(streamName: streamName, fileType: fileType, station: station)
        guard info != mountInfo else { return nil }
        mountInfo = info
        return .mountInfo(info)
    }
}
