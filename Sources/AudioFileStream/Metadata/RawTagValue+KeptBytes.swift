extension RawTagValue {
    /// Roughly the bytes this value holds: its strings in UTF-8 and its picture data. Readers charge it against
    /// `MetadataLimits.maxTagBytes`.
    var keptByteCount: Int {
        switch self {
        case .text(let values): values.reduce(0) { $0 + $1.utf8.count }
        case .comment(let language, let description, let text):
            language.utf8.count + description.utf8.count + text.utf8.count
        case .userText(let description, let values): values.reduce(description.utf8.count) { $0 + $1.utf8.count }
        case .url(let url): url.utf8.count
        case .userURL(let description, let url): description.utf8.count + url.utf8.count
        case .picture(let artwork): artwork.mimeType.utf8.count + artwork.description.utf8.count + artwork.data.count
        case .binary: 0
        }
    }
}
