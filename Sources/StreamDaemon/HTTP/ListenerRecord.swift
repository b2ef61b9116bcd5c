import NIOCore

/// One HTTP listener of a mount, as Icecast's `listclients` lists it.
struct ListenerRecord: Sendable {
    /// Its subscriber id: unique in its stream, what `killclient` names.
    let id: Int
    let client: ClientIdentity?
    let connectedAt: NIODeadline
}
