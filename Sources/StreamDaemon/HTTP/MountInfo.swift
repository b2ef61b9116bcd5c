import AudioFileStream

/// What an HTTP listener's response head says about a stream: its content type and the station's icy-* headers.
struct MountInfo: Equatable, Sendable {
    var contentType: String
    /// `icy-name`: the source station's name, or else the stream's.
    var name: String
    var genre: String?
    var url: String?
    var description: String?
    /// `icy-br`: kb/s as the source station announced it.
    var bitRate: Int?

    /// The info of a stream in a file of `fileType`, with what its source station says; nil when HTTP listeners
    /// cannot be served its packets as they are.
    init?(streamName: String, fileType: AudioFileType, station: HTTPStreamInfo?) {
        guard let contentType = Self.contentType(of: fileType) else { return nil }
        self.contentType = contentType
        name = station?.name ?? streamName
        genre = station?.genre
        url = station?.url
        description = station?.description
        bitRate = station?.bitRate
    }

    /// The MIME type players expect for an elementary stream, whose packets laid end to end are the stream. Nil
    /// for a container (Ogg, FLAC), whose pages and headers listeners would need besides the packets.
    static func contentType(of fileType: AudioFileType) -> String? {
        switch fileType {
        case .mp1, .mp2, .mp3: "audio/mpeg"
        case .adts: "audio/aac"
        case .ac3: "audio/ac3"
        case .eac3: "audio/eac3"
        default: nil
        }
    }
}
