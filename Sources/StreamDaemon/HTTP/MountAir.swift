import Foundation

/// What a mount has on the air, as Icecast's statistics and the status page tell it: its main source (a station, a
/// file, a live DJ) or its fallback, each since it took the air, or nothing.
enum MountAir: Equatable, Sendable {
    case main(since: Date)
    case fallback(since: Date)
    /// No source plays: lost, with no fallback playing, or a push mount before its first DJ.
    case off

    /// When the source on the air took it; nil off the air.
    var since: Date? {
        switch self {
        case .main(let since), .fallback(let since): since
        case .off: nil
        }
    }
}
