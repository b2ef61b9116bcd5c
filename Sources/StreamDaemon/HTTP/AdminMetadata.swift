import Foundation

/// Icecast's admin call that names what a stream plays:
/// `GET /admin/metadata?mount=/NAME&mode=updinfo&song=TEXT[&charset=NAME]`, as automation systems, encoders and
/// scripts send it. The query is form-encoded (`+` is a space); the song's bytes are read in `charset`: UTF-8,
/// ISO-8859-1 (`latin1`) or Windows-1252, and without one UTF-8, or Windows-1252 when they are not UTF-8.
struct AdminMetadata {
    let mount: String
    let song: String

    /// Icecast's answer to a title set, word for word, which some clients look for.
    static let success = "<?xml version=\"1.0\"?>\n"
        + "<iceresponse><message>Metadata update successful</message><return>1</return></iceresponse>\n"

    /// Reads `query`.
    /// - Throws: `HTTPRefusal` 400 naming what is missing or wrong: a mode other than `updinfo`, no mount, no
    ///   song, a charset not read, or a song that is not text in its charset.
    init(query: String?, http11: Bool) throws(HTTPRefusal) {
        let fields = FormQuery(query)
        let refuse = { (reason: String) in HTTPRefusal(.badRequest, reason, http11: http11) }
        guard let mode = fields["mode"] else { throw refuse("no mode: only mode=updinfo is served") }
        guard String(decoding: mode, as: UTF8.self) == "updinfo" else { throw refuse("only mode=updinfo is served") }
        guard let mount = fields.text("mount"), mount.hasPrefix("/")
        else { throw refuse("no mount: mount=/NAME names the stream") }
        guard let bytes = fields["song"] else { throw refuse("no song: song=TEXT is the title") }
        let charset = fields["charset"].map { String(decoding: $0, as: UTF8.self) }
        guard let song = try Self.text(bytes, charset: charset, refuse: refuse) else {
            throw refuse("the song is not \(charset ?? "UTF-8") text")
        }
        self.mount = mount
        self.song = song
    }

    /// `bytes` read in `charset`: nil when they are not text in it.
    private static func text(_ bytes: [UInt8], charset: String?,
                             refuse: (String) -> HTTPRefusal) throws(HTTPRefusal) -> String? {
        guard let charset else {
            return String(validating: bytes, as: UTF8.self) ?? String(bytes: bytes, encoding: .windowsCP1252)
        }
        switch charset.lowercased() {
        case "utf-8", "utf8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1": return String(bytes: bytes, encoding: .isoLatin1)
        case "windows-1252", "cp1252": return String(bytes: bytes, encoding: .windowsCP1252)
        default: throw refuse("charset \(charset) is not read: UTF-8, ISO-8859-1 or Windows-1252 are")
        }
    }
}
