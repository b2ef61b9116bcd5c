import AudioStreamProtocol
import Foundation
import NIOCore

/// The XML answers of Icecast 2.4's admin commands, with its element names, order and nesting: `stats`,
/// `listmounts`, `listclients`, and the `iceresponse` of the commands that act. Only mounts on the air are listed,
/// as Icecast lists mounts with a source; every text is escaped (titles and user agents are the clients' own).
enum IcecastAdminXML {
    /// What the server counted since it started, for `stats`.
    struct ServerCounts: Sendable {
        /// HTTP connections accepted, listeners served and source clients taken.
        var connections = 0
        var listenerConnections = 0
        var sourceConnections = 0
    }

    static let header = "<?xml version=\"1.0\"?>\n"

    /// The answer of a command that acts: its message, and whether it did.
    static func response(_ message: String, done: Bool) -> String {
        header + "<iceresponse>" + element("message", message) + element("return", done ? "1" : "0")
            + "</iceresponse>\n"
    }

    /// `/admin/stats`: the server's figures, then each mount on the air (or `only` that one) with every figure of
    /// its source.
    static func stats(_ mounts: [MountFacts], only: String? = nil, counts: ServerCounts, serverURL: String,
                      started: Date) -> String {
        let onAir = mounts.filter { $0.air != .off }
        let listeners = mounts.reduce(0) { $0 + $1.listeners }
        let sourceClients = onAir.count { $0.sourceClient != nil }
        let host = URLComponents(string: serverURL)?.host ?? ""
        let server: [(String, String)] = [
            ("admin", ""), ("client_connections", "\(counts.connections)"), ("clients", "\(listeners + sourceClients)"),
            ("connections", "\(counts.connections)"), ("file_connections", "0"), ("host", host),
            ("listener_connections", "\(counts.listenerConnections)"), ("listeners", "\(listeners)"), ("location", ""),
            ("server_id", "audiostreamd \(packageVersion)"), ("server_start", IcecastStatus.rfc822(started)),
            ("server_start_iso8601", IcecastStatus.iso8601(started)),
            ("source_client_connections", "\(counts.sourceConnections)"), ("source_relay_connections", "0"),
            ("source_total_connections", "\(counts.sourceConnections)"), ("sources", "\(onAir.count)"),
            ("stats", "0"), ("stats_connections", "0"),
        ]
        let sources = onAir.filter { only == nil || $0.mount == only }.compactMap { facts in
            facts.air.since.map { source(facts.mount, sourceFields(facts, since: $0, serverURL: serverURL)) }
        }
        return header + "<icestats>" + server.map(element).joined() + sources.joined() + "</icestats>\n"
    }

    /// `/admin/listmounts`: each mount on the air, with its listeners, seconds on the air and content type. For
    /// `moveclients` without a destination, the `current` mount is named first and left out of the list.
    static func listMounts(_ mounts: [MountFacts], current: String? = nil, now: Date) -> String {
        let sources = mounts.filter { $0.mount != current }.compactMap { facts in
            facts.air.since.map { since in
                source(facts.mount, [
                    ("fallback", ""), ("listeners", "\(facts.listeners)"), ("Connected", "\(seconds(since, now))"),
                    ("content-type", facts.info?.contentType ?? ""),
                ])
            }
        }
        let named = current.map { element("current_source", $0) } ?? ""
        return header + "<icestats>" + named + sources.joined() + "</icestats>\n"
    }

    /// `/admin/listclients`: the listeners of `mount`, each with its address, user agent, seconds connected and id.
    static func listClients(mount: String, _ listeners: [ListenerRecord], now: NIODeadline) -> String {
        let clients = listeners.map { listener in
            let seconds = (now - listener.connectedAt).nanoseconds / 1_000_000_000
            return "<listener>" + element("IP", listener.client?.address ?? "")
                + element("UserAgent", listener.client?.userAgent ?? "") + element("Connected", "\(seconds)")
                + element("ID", "\(listener.id)") + "</listener>"
        }
        let listed = element("Listeners", "\(listeners.count)") + clients.joined()
        return header + "<icestats><source mount=\"\(mount.markupEscaped)\">" + listed + "</source></icestats>\n"
    }

    /// A mount's fields in `stats`: those of its JSON statistics and those only the XML has, by name.
    private static func sourceFields(_ facts: MountFacts, since: Date, serverURL: String) -> [(String, String)] {
        let shared = IcecastStatus.sourceFields(facts, since: since, serverURL: serverURL).map { ($0.0, text($0.1)) }
        var own = [
            ("max_listeners", "unlimited"), ("public", "0"), ("slow_listeners", "0"),
            ("total_bytes_read", "\(facts.bytesRead)"), ("total_bytes_sent", "\(facts.bytesSent)"),
        ]
        if let client = facts.sourceClient { own += [("source_ip", client.address), ("user_agent", client.userAgent)] }
        return (shared + own).sorted { $0.0 < $1.0 }
    }

    private static func source(_ mount: String, _ fields: [(String, String)]) -> String {
        "<source mount=\"\(mount.markupEscaped)\">" + fields.map(element).joined() + "</source>"
    }

    private static func element(_ name: String, _ text: String) -> String {
        "<\(name)>\(text.markupEscaped)</\(name)>"
    }

    private static func text(_ value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): flag ? "1" : "0"
        case .null, .array, .object: ""
        }
    }

    private static func seconds(_ since: Date, _ now: Date) -> Int {
        max(0, Int(now.timeIntervalSince(since)))
    }
}
