import AudioFileStream

/// The JSON of the `events` schema (docs/protocol.md): here the parser's events, which `audiostream` prints and
/// the daemon sends as `event` messages; the extensions add the events of the stream, its source and its delivery.
public enum EventJSON {
    /// One object per event; a packets batch gives one object per packet.
    public static func objects(for event: AudioFileStreamEvent) -> [JSON] {
        switch event {
        case .property(let id, let propertyValue):
            return [.object([
                ("event", .string("property")), ("id", .string(id.description)), ("value", value(propertyValue)),
            ])]
        case .packets(let batch):
            return MessagePackets(batch).map(packet)
        case .metadata(let event):
            return [.object([
                ("event", .string("metadata")), ("source", .string(event.metadata.source.rawValue)),
                ("offset", .number(event.offset)), ("tags", tags(event.metadata.tags)),
                ("raw", .array(event.metadata.raw.map(field))),
            ])]
        case .discontinuity(let discontinuity):
            return [self.discontinuity(discontinuity, skippedBytes: discontinuity.skippedBytes)]
        case .warning(let warning):
            return [.object([
                ("event", .string("warning")), ("offset", .number(warning.offset)),
                ("kind", .string(warning.kind.rawValue)), ("message", .string(warning.message)),
            ])]
        }
    }

    /// A discontinuity, with `skippedBytes` counting every byte lost there.
    public static func discontinuity(_ discontinuity: Discontinuity, skippedBytes: Int64) -> JSON {
        .object(discontinuityMembers(
            offset: discontinuity.offset, skippedBytes: skippedBytes, reason: discontinuity.reason.rawValue))
    }

    /// What every discontinuity event says, in this order.
    static func discontinuityMembers(offset: Int64, skippedBytes: Int64, reason: String) -> [(String, JSON)] {
        [
            ("event", .string("discontinuity")), ("offset", .number(offset)), ("skippedBytes", .number(skippedBytes)),
            ("reason", .string(reason)),
        ]
    }

    /// One packet of a batch, as a message carries it (`MessagePackets`).
    public static func packet(_ packet: AudioPacket) -> JSON {
        self.packet(offset: packet.offset, size: packet.bytes.count, frames: packet.frames)
    }

    static func packet(offset: Int64, size: Int, frames: Int64) -> JSON {
        .object([
            ("event", .string("packet")), ("offset", .number(offset)), ("size", .number(size)),
            ("frames", .number(frames)),
        ])
    }

    public static func value(_ value: AudioFileStreamPropertyValue) -> JSON {
        switch value {
        case .uint32(let number): .number(number)
        case .uint64(let number): .int(Int64(clamping: number))
        case .int64(let number): .number(number)
        case .float64(let number): .double(number)
        case .fileType(let type): .string(type.description)
        case .format(let format): Self.format(format)
        case .formatList(let items):
            .array(items.map { .object([("format", format($0.format)), ("channelLayoutTag", .number($0.channelLayoutTag))]) })
        case .data(let bytes): .string(bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined())
        case .channelLayout(let layout) where layout.tag == AudioChannelLayout.useChannelBitmap:
            // The positions are in the bitmap (a WAVE channel mask no layout tag names).
            .object([("channelLayoutTag", .number(layout.tag)), ("channelBitmap", .number(layout.channelBitmap)),
                     ("channels", .number(layout.channelCount))])
        case .channelLayout(let layout):
            .object([("channelLayoutTag", .number(layout.tag)), ("channels", .number(layout.channelCount))])
        case .packetTableInfo(let table): packetTableInfo(table)
        case .dictionary(let dictionary):
            .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        }
    }

    public static func format(_ format: AudioStreamBasicDescription) -> JSON {
        .object([
            ("sampleRate", .double(format.sampleRate)), ("formatID", .string(format.formatID.description)),
            ("formatFlags", .number(format.formatFlags)), ("bytesPerPacket", .number(format.bytesPerPacket)),
            ("framesPerPacket", .number(format.framesPerPacket)), ("bytesPerFrame", .number(format.bytesPerFrame)),
            ("channelsPerFrame", .number(format.channelsPerFrame)), ("bitsPerChannel", .number(format.bitsPerChannel)),
        ])
    }

    public static func packetTableInfo(_ table: PacketTableInfo) -> JSON {
        .object([
            ("validFrames", .number(table.validFrames)), ("primingFrames", .number(table.primingFrames)),
            ("remainderFrames", .number(table.remainderFrames)),
        ])
    }

    /// The normalised keys that are set, numbers as numbers and the year as a string.
    public static func tags(_ tags: NormalizedTags) -> JSON {
        let members: [(String, JSON?)] = [
            ("title", tags.title.map(JSON.string)), ("artist", tags.artist.map(JSON.string)),
            ("album", tags.album.map(JSON.string)), ("albumArtist", tags.albumArtist.map(JSON.string)),
            ("year", tags.year.map(JSON.string)), ("trackNumber", tags.trackNumber.map(JSON.number)),
            ("trackCount", tags.trackCount.map(JSON.number)), ("discNumber", tags.discNumber.map(JSON.number)),
            ("discCount", tags.discCount.map(JSON.number)), ("genre", tags.genre.map(JSON.string)),
            ("comments", tags.comments.map(JSON.string)), ("composer", tags.composer.map(JSON.string)),
            ("bpm", tags.bpm.map(JSON.number)), ("grouping", tags.grouping.map(JSON.string)),
            ("artwork", tags.artwork.map(artwork)),
        ]
        return .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    public static func artwork(_ artwork: Artwork) -> JSON {
        .object([
            ("mimeType", .string(artwork.mimeType)), ("size", .number(artwork.size)),
            ("pictureType", .number(artwork.pictureType)), ("description", .string(artwork.description)),
        ])
    }

    /// The `artwork` event describing a picture of the tag `event`, as an artwork message carries it.
    public static func artwork(_ artwork: Artwork, of event: MetadataEvent) -> JSON {
        guard case .object(let members) = self.artwork(artwork) else { return .null }
        return .object([
            ("event", .string("artwork")), ("source", .string(event.metadata.source.rawValue)),
            ("offset", .number(event.offset)),
        ] + members)
    }

    /// A raw field in the shape the fixture script records from mutagen.
    public static func field(_ field: RawTagField) -> JSON {
        let id = ("id", JSON.string(field.key))
        switch field.value {
        case .text(let values):
            return .object([id, ("text", .array(values.map(JSON.string)))])
        case .comment(let language, let description, let text):
            return .object([id, ("lang", .string(language)), ("desc", .string(description)), ("text", .array([.string(text)]))])
        case .userText(let description, let values):
            return .object([id, ("desc", .string(description)), ("text", .array(values.map(JSON.string)))])
        case .url(let url):
            return .object([id, ("url", .string(url))])
        case .userURL(let description, let url):
            return .object([id, ("desc", .string(description)), ("url", .string(url))])
        case .picture(let picture):
            return .object([
                id, ("mime", .string(picture.mimeType)), ("type", .number(picture.pictureType)),
                ("desc", .string(picture.description)), ("size", .number(picture.size)),
            ])
        case .binary(let size):
            return .object([id, ("size", .number(size))])
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}
