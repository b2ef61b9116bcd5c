/// What the HTTP server does with a request, by its method and path: one case per endpoint. An endpoint is added
/// as a case read from the request here and its answer in `HTTPConnection.answer(_:_:context:)`.
enum HTTPRoute {
    /// `GET /status.json`: the streams and their listeners.
    case status
    /// `GET /admin/streamlist.txt`: the mounts, one per line, for Icecast's master/slave relaying.
    case streamList
    /// `GET` of a stream's mount: its audio, for players and relays.
    case mount(StreamService)
    /// `GET /` (or Icecast's `/status.xsl`): the status page, for people.
    case statusPage
    /// `GET /status-json.xsl`: Icecast's statistics, for players, monitors and dashboards.
    case icecastStatus
    /// `GET /admin/metadata`: Icecast's admin call that sets a stream's title.
    case adminMetadata
    /// `GET /admin/COMMAND`: another of Icecast's admin commands.
    case admin(IcecastAdminCommand)
    /// `GET /MOUNT.m3u` or `/MOUNT.pls`: a playlist of a stream's mount.
    case playlist(StreamService, mount: String, MountPlaylist.Kind)
    /// `PUT`, or Icecast's legacy `SOURCE`, to a stream's mount: an Icecast source client pushing to it.
    case source(StreamService)
    /// `GET /hls/NAME/FILE`: a stream's HLS media playlist, segment, part or initialization section, with the
    /// query's `session` if it has one.
    case hls(HLSDesks, HLSRequest, session: String?)
    /// `GET /hls/GROUP/master.m3u8`: the multivariant playlist over the streams of an HLS group.
    case hlsGroup([StreamService])

    /// The route of `request` among the server's own paths and `mounts`.
    /// - Throws: `HTTPRefusal`: 405 for a method the server does not take, 404 for a path with nothing at it.
    init(_ request: HTTPRequest, mounts: HTTPMounts) throws(HTTPRefusal) {
        if request.head.method == .PUT || request.head.method == .SOURCE {
            guard let stream = mounts.stream(at: request.path) else {
                throw HTTPRefusal(.notFound, "no stream at \(request.path)", http11: request.isHTTP11)
            }
            self = .source(stream)
            return
        }
        guard request.head.method == .GET || request.isHead else {
            throw HTTPRefusal(.methodNotAllowed, "only GET and HEAD are served", fields: [("Allow", "GET, HEAD")])
        }
        if request.path.hasPrefix(Self.hlsPrefix) {
            self = try Self.hlsRoute(request, mounts: mounts)
        } else if request.path == "/status.json" {
            self = .status
        } else if request.path == "/admin/streamlist.txt" {
            self = .streamList
        } else if let route = Self.icecastRoute(request.path) {
            self = route
        } else if let stream = mounts.stream(at: request.path) {
            self = .mount(stream)
        } else if let playlist = MountPlaylist.mount(of: request.path), let stream = mounts.stream(at: playlist.mount) {
            self = .playlist(stream, mount: playlist.mount, playlist.kind)
        } else {
            throw HTTPRefusal(.notFound, "no stream at \(request.path)", http11: request.isHTTP11)
        }
    }

    /// Whether the answer depends on a password: such requests wait out their client's back-off (`AuthBackoff`).
    var needsPassword: Bool {
        switch self {
        case .streamList, .adminMetadata, .admin, .source: true
        case .status, .mount, .statusPage, .icecastStatus, .playlist, .hls, .hlsGroup: false
        }
    }

    /// The paths of Icecast's that the server answers as Icecast does.
    private static func icecastRoute(_ path: String) -> HTTPRoute? {
        switch path {
        case "/", "/status.xsl": .statusPage
        case "/status-json.xsl": .icecastStatus
        case "/admin/metadata": .adminMetadata
        default: path.hasPrefix("/admin/") ? IcecastAdminCommand(rawValue: String(path.dropFirst(7))).map(admin) : nil
        }
    }

    /// Paths the server answers itself, which no stream's mount may take.
    static func isReserved(_ path: String) -> Bool {
        path == "/status.json" || path == "/admin" || path.hasPrefix("/admin/") || icecastRoute(path) != nil
            || path == "/hls" || path.hasPrefix(hlsPrefix)
    }

    private static let hlsPrefix = "/hls/"
    /// The multivariant playlist's name in a group's folder.
    static let hlsGroupPlaylist = "master.m3u8"

    /// `/hls/NAME/FILE` of a stream with `hls:`, or `/hls/GROUP/master.m3u8`.
    private static func hlsRoute(_ request: HTTPRequest, mounts: HTTPMounts) throws(HTTPRefusal) -> HTTPRoute {
        let rest = request.path.utf8.dropFirst(hlsPrefix.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
              !rest[rest.index(after: slash)...].contains(UInt8(ascii: "/")) else {
            throw HTTPRefusal(.notFound, "no HLS at \(request.path)", http11: request.isHTTP11)
        }
        let (name, file) = (String(Substring(rest[..<slash])), String(Substring(rest[rest.index(after: slash)...])))
        if file == hlsGroupPlaylist {
            let group = mounts.hlsGroup(name)
            if !group.isEmpty { return .hlsGroup(group) }
        }
        guard let desks = mounts.hlsStream(named: name)?.hlsDesks else {
            throw HTTPRefusal(.notFound, "no stream with HLS is called \(name)", http11: request.isHTTP11)
        }
        let query = FormQuery(request.query)
        do throws(HLSRefusal) {
            return .hls(desks, try HLSRequest(name: file, query: query), session: query.text("session"))
        } catch {
            throw error.refusal(http11: request.isHTTP11)
        }
    }
}
