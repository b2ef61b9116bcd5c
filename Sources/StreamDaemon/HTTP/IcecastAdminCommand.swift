/// Icecast 2.4's admin commands the server answers at `/admin/NAME`, with its parameters, for user `admin` and
/// `http.adminPassword`: dashboards and operators' scripts call them by these names.
enum IcecastAdminCommand: String, Sendable {
    /// The server's and every mount's figures, as XML.
    case stats
    /// The mounts on the air.
    case listmounts
    /// `mount`: its listeners.
    case listclients
    /// `mount`: drops its source client (a stuck DJ).
    case killsource
    /// `mount`, `id`: drops one listener.
    case killclient
    /// `mount`, `destination`: moves the listeners of one mount to another of the same content type.
    case moveclients
}
