/// A playlist of one mount, as Icecast serves `/MOUNT.m3u` (and SHOUTcast `.pls`), for players that open
/// playlists rather than streams.
enum MountPlaylist {
    enum Kind {
        case m3u, pls

        var contentType: String {
            switch self {
            case .m3u: "audio/x-mpegurl"
            case .pls: "audio/x-scpls"
            }
        }
    }

    /// The mount a playlist's path names, and the kind: `/radio.m3u` is the M3U of `/radio`.
    static func mount(of path: String) -> (mount: String, kind: Kind)? {
        for (suffix, kind) in [(".m3u", Kind.m3u), (".pls", .pls)] where path.hasSuffix(suffix) {
            let mount = String(path.dropLast(suffix.count))
            return mount.count > 1 ? (mount, kind) : nil
        }
        return nil
    }

    /// The playlist holding `url`, the mount's listen URL, named `title` where the format names entries.
    static func text(_ kind: Kind, url: String, title: String) -> String {
        switch kind {
        case .m3u:
            // As Icecast writes it.
            return url + "\r\n"
        case .pls:
            let title = String(title.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
            return "[playlist]\nNumberOfEntries=1\nFile1=\(url)\nTitle1=\(title)\nLength1=-1\nVersion=2\n"
        }
    }
}

extension HTTPRequest {
    /// `http://HOST[:PORT]`: the server as the client named it (its Host header), so that the URLs it is given
    /// reach the server the way it did, as Icecast's do; `fallback` when it named none, or nothing a URL may hold.
    func serverURL(fallback: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:[]".unicodeScalars)
        guard let host = head.headers.first(name: "host"), !host.isEmpty,
              host.unicodeScalars.allSatisfy(allowed.contains) else { return "http://" + fallback }
        return "http://" + host
    }
}
