/// Metadata that comes with a network source rather than inside the audio.
public enum SourceMetadata: Equatable, Sendable {
    /// The station, from the headers of an HTTP response.
    case station(HTTPStreamInfo)
    /// An ICY block from the body.
    case icy(ICYMetadata)

    /// The `metadata` event of the `events` schema, for metadata found after `offset` bytes of audio.
    public func json(offset: Int64) -> JSON {
        switch self {
        case .station(let info): info.json(offset: offset)
        case .icy(let metadata): metadata.json(offset: offset)
        }
    }
}
