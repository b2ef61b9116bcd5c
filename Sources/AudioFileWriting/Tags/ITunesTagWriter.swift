import AudioFileStream

/// Writes tags as iTunes metadata items (`ilst` children, each holding a `data` atom), the key space of M4A
/// files, as mutagen, ffmpeg and iTunes read them.
public enum ITunesTagWriter {
    /// The `ilst` items for `tags`, in iTunes' order: text keys, the track and disc numbers, tempo, artwork. A
    /// key not set, and artwork whose bytes were not kept, are left out.
    public static func items(_ tags: NormalizedTags) -> [UInt8] {
        var builder = MP4BoxBuilder()
        let texts: [(String, String?)] = [
            ("\u{A9}nam", tags.title), ("\u{A9}ART", tags.artist), ("\u{A9}alb", tags.album),
            ("aART", tags.albumArtist), ("\u{A9}day", tags.year), ("\u{A9}gen", tags.genre),
            ("\u{A9}cmt", tags.comments), ("\u{A9}wrt", tags.composer), ("\u{A9}grp", tags.grouping),
        ]
        for case let (key, text?) in texts { builder.item(key, .utf8, Array(text.utf8)) }
        // trkn and disk: two reserved bytes, the number and the total (16 bits each); trkn has two more.
        if tags.trackNumber != nil || tags.trackCount != nil {
            builder.item("trkn", .implicit, numberPair(tags.trackNumber, of: tags.trackCount) + [0, 0])
        }
        if tags.discNumber != nil || tags.discCount != nil {
            builder.item("disk", .implicit, numberPair(tags.discNumber, of: tags.discCount))
        }
        if let bpm = tags.bpm { builder.item("tmpo", .signedInteger, [UInt8](bigEndian: UInt16(clamping: bpm))) }
        if let artwork = tags.artwork, !artwork.data.isEmpty {
            builder.item("covr", isPNG(artwork) ? .png : .jpeg, artwork.data)
        }
        return builder.bytes
    }

    /// An item of `key` (`©nam` …) holding UTF-8 text.
    public static func textItem(key: String, text: String) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.item(key, .utf8, Array(text.utf8))
        return builder.bytes
    }

    /// A free-form item (`----`): a `mean` (the owner's domain), a `name` and UTF-8 text, as iTunes writes its
    /// own, such as `com.apple.iTunes` `iTunSMPB`.
    public static func freeFormItem(mean: String, name: String, text: String) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("----") {
            $0.fullBox("mean") { $0.append(Array(mean.utf8)) }
            $0.fullBox("name") { $0.append(Array(name.utf8)) }
            $0.data(.utf8, Array(text.utf8))
        }
        return builder.bytes
    }

    /// The `udta` box of a movie holding `items`: `meta` with the `mdir` handler iTunes requires, then `ilst`.
    public static func userData(items: [UInt8]) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("udta") {
            $0.fullBox("meta") {
                $0.fullBox("hdlr") {
                    $0.uint32(0)
                    $0.fourCC("mdir")
                    $0.fourCC("appl")
                    $0.zeros(9)  // two reserved words, an empty name
                }
                $0.box("ilst") { $0.append(items) }
            }
        }
        return builder.bytes
    }

    private static func numberPair(_ number: Int?, of total: Int?) -> [UInt8] {
        [0, 0] + [UInt8](bigEndian: UInt16(clamping: number ?? 0))
            + [UInt8](bigEndian: UInt16(clamping: total ?? 0))
    }

    /// PNG by its MIME type or its signature; anything else is stored as JPEG, the type iTunes assumes.
    private static func isPNG(_ artwork: Artwork) -> Bool {
        artwork.mimeType.lowercased() == "image/png" || artwork.data.starts(with: [0x89, 0x50, 0x4E, 0x47])
    }
}

/// The `data` atom's type codes (the well-known types of QuickTime's metadata).
private enum ITunesDataType: UInt32 {
    case implicit = 0, utf8 = 1, jpeg = 13, png = 14, signedInteger = 21
}

extension MP4BoxBuilder {
    /// An item of `key` holding one `data` atom.
    fileprivate mutating func item(_ key: String, _ type: ITunesDataType, _ payload: [UInt8]) {
        box(key) { $0.data(type, payload) }
    }

    /// A `data` atom: its type (with a version byte of 0), a locale of 0, the payload.
    fileprivate mutating func data(_ type: ITunesDataType, _ payload: [UInt8]) {
        box("data") {
            $0.uint32(type.rawValue)
            $0.uint32(0)
            $0.append(payload)
        }
    }
}
