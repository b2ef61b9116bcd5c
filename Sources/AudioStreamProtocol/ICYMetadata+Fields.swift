extension ICYMetadata {
    /// The block a server writes for `fields`, in order: `key='value';` each, every value as `carried(_:)` makes
    /// it, so that a reader finds these fields and no other, and no control character reaches a player.
    public init(fields: [(key: String, value: String)]) {
        let carried = fields.map { Field(key: $0.key, value: Self.carried($0.value)) }
        self.fields = carried
        text = carried.map { "\($0.key)='\($0.value)';" }.joined()
    }

    /// `value` as a field can carry it: each control character (C0, DEL, C1: NUL, CR, LF, ESC …) as a space, so
    /// that words it separated stay apart, and `'` followed by `;`, which ends a field for every reader of ICY
    /// blocks (Icecast's, FFmpeg's, players'), with the quote written `’` (U+2019), so that no value can end its
    /// field early and start another.
    public static func carried(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let kept = scalar.properties.generalCategory == .control ? " " : scalar
            if kept == ";", scalars.last == "'" {
                scalars.removeLast()
                scalars.append("’")
            }
            scalars.append(kept)
        }
        return String(scalars)
    }
}
