import AudioFileStream

/// One field of a tag as it is stored (an ID3v2 frame, an `ilst` item, a Vorbis comment, a RIFF INFO chunk), and
/// the identity an edit names it by: fields of one identity are replaced or removed together.
struct TagField: Equatable {
    var identity: String
    var bytes: [UInt8]
}

/// A key space's side of an edit: the fields its writer makes of common keys and of raw ones.
protocol TagFieldSpace {
    /// The space raw keys name, or nil when none does (RIFF INFO).
    var rawSpace: TagKeySpace? { get }
    /// The fields of the keys set in `tags`, as the space's tag writer writes them.
    func fields(for tags: NormalizedTags) throws -> [TagField]
    /// The identities of fields that readers take for the same common key as the field of `identity` (an
    /// iTunes `gnre` for `©gen`), which an edit of that key removes too.
    func aliases(of identity: String) -> [String]
    /// The identity of the fields raw id `id` names.
    func identity(ofRaw id: String) -> String
    /// A field holding `value` under raw id `id`.
    /// - Throws: `TagEditError.unsupportedKey` when the field is not text.
    func field(raw id: String, value: String) throws -> TagField
}

extension TagFieldSpace {
    func aliases(of identity: String) -> [String] { [] }
}

extension TagEdits {
    /// The raw keys named, each with its space.
    var rawKeys: [(space: TagKeySpace, id: String)] {
        (set.map(\.key) + remove).compactMap { key in
            guard case .raw(let space, let id) = key else { return nil }
            return (space, id)
        }
    }

    /// Throws when a raw key names a space other than `spaces`, the ones a file of `kind` holds.
    func checkRawKeys(allowed spaces: [TagKeySpace], in kind: String) throws {
        for key in rawKeys where !spaces.contains(key.space) {
            throw TagEditError.unsupportedKey(
                "\(key.space.rawValue):\(key.id): \(kind) tags are \(spaces.map { "\($0.rawValue):" }.joined(separator: " or "))")
        }
    }

    /// `fields` with the edits applied in `space`: the fields of every key named are dropped, and those of the
    /// keys set appended. `current` are the file's common keys, which fill in what is written together with a
    /// key set (a track count beside its number).
    func apply(to fields: [TagField], in space: some TagFieldSpace, current: NormalizedTags,
               picturesIncluded: Bool = true) throws -> [TagField] {
        var merged = current
        var named: [CommonTagKey] = []
        for case .common(let key) in remove {
            try key.set(nil, in: &merged)
            named.append(key)
        }
        // An empty value removes the key, in every space alike: ID3v2 and RIFF INFO hold no empty text.
        for case (.common(let key), let value) in set {
            try key.set(value.isEmpty ? nil : value, in: &merged)
            named.append(key)
        }
        var removed = Set<String>()
        var added: [TagField] = []
        var groups: [[CommonTagKey]] = []
        for key in named where !groups.contains(key.written) { groups.append(key.written) }
        for group in groups {
            var placeholder = NormalizedTags()
            var values = NormalizedTags()
            for key in group {
                try key.set("1", in: &placeholder)
                try key.set(key.value(in: merged), in: &values)
            }
            for identity in try space.fields(for: placeholder).map(\.identity) {
                removed.formUnion([identity] + space.aliases(of: identity))
            }
            added += try space.fields(for: values)
        }
        for (rawSpace, id) in rawKeys where rawSpace == space.rawSpace { removed.insert(space.identity(ofRaw: id)) }
        for case (.raw(let rawSpace, let id), let value) in set where rawSpace == space.rawSpace && !value.isEmpty {
            added.append(try space.field(raw: id, value: value))
        }
        if picturesIncluded, let artwork {
            var placeholder = NormalizedTags()
            placeholder.artwork = Artwork(mimeType: "image/jpeg", pictureType: 3, description: "", size: 1, data: [0])
            removed.formUnion(try space.fields(for: placeholder).map(\.identity))
            if case .replace(let picture) = artwork {
                var values = NormalizedTags()
                values.artwork = picture
                added += try space.fields(for: values)
            }
        }
        return fields.filter { !removed.contains($0.identity) } + added
    }
}

extension CommonTagKey {
    /// This key's value in `tags`, as text.
    package func value(in tags: NormalizedTags) -> String? {
        switch self {
        case .title: tags.title
        case .artist: tags.artist
        case .album: tags.album
        case .albumArtist: tags.albumArtist
        case .year: tags.year
        case .trackNumber: tags.trackNumber.map(String.init)
        case .trackCount: tags.trackCount.map(String.init)
        case .discNumber: tags.discNumber.map(String.init)
        case .discCount: tags.discCount.map(String.init)
        case .genre: tags.genre
        case .comments: tags.comments
        case .composer: tags.composer
        case .bpm: tags.bpm.map(String.init)
        case .grouping: tags.grouping
        }
    }
}
