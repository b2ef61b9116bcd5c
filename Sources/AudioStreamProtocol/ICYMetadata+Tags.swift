import AudioFileStream

extension ICYMetadata {
    /// The block's `StreamTitle` as tags: stations write `Artist - Title`, split at the first ` - `; a title
    /// without one is the title alone. Nil when the block has no `StreamTitle`.
    public var tags: NormalizedTags? {
        guard let streamTitle else { return nil }
        var tags = NormalizedTags()
        if let separator = streamTitle.range(of: " - ") {
            tags.artist = String(streamTitle[..<separator.lowerBound])
            tags.title = String(streamTitle[separator.upperBound...])
        } else {
            tags.title = streamTitle
        }
        return tags
    }
}
