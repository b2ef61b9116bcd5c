import Glibc

/// Icecast's admin statistics for the benchmark's mount (`/admin/stats?mount=`).
struct IcecastStats {
    let view: RelayView

    /// - Throws: when Icecast does not answer 200 with the mount's listener count.
    init(port: Int, mount: String, adminPassword: String) throws {
        let file = try LoopbackHTTP.send("GET", "/admin/stats?mount=\(mount)", port: port, user: "admin",
                                         password: adminPassword, headers: ["Connection: close"])
        defer { close(file) }
        let response = String(decoding: try Socket.readToEnd(file), as: UTF8.self)
        guard LoopbackHTTP.code(in: Array(response.utf8)) == 200,
              let source = response.firstRange(of: "<source mount=\"\(mount)\">"),
              case let mountStats = response[source.upperBound...],
              let listeners = Self.integer(named: "listeners", in: mountStats)
        else { throw LoadError("no statistics for \(mount) from Icecast on port \(port)") }
        view = RelayView(subscribers: listeners, slowListeners: Self.integer(named: "slow_listeners", in: mountStats))
    }

    /// The integer in the first `<name>…</name>` element of `xml`.
    private static func integer(named name: String, in xml: Substring) -> Int? {
        guard let open = xml.firstRange(of: "<\(name)>"),
              let close = xml[open.upperBound...].firstRange(of: "</\(name)>")
        else { return nil }
        return Int(xml[open.upperBound..<close.lowerBound])
    }
}
