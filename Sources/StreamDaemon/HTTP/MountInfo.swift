import AudioStreamProtocol

/// What an HTTP listener's response head says about a stream: its content type and the station's icy-* headers.
struct MountInfo: Equatable, Sendable {
    var contentType: String
    /// Whether ICY metadata blocks may go between the audio bytes (`ListenerFraming.carriesICYMetadata`).
    var carriesICYMetadata: Bool
    /// `icy-name`: the source station's name, or else the stream's.
    var name: String
    var genre: String?
    var url: String?
    var description: String?
    /// `icy-br`: kb/s as the source station announced it.
    var bitRate: Int?

    /// The info of a stream served as `contentType`, with what its source station says.
    init(streamName: String, contentType: String, carriesICYMetadata: Bool, station: HTTPStreamInfo?) {
        self.contentType = contentType
        self.carriesICYMetadata = carriesICYMetadata
        name = station?.name ?? streamName
        genre = station?.genre
        url = station?.url
        description = station?.description
        bitRate = station?.bitRate
    }
}
