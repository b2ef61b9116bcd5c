/// What a reload does to a running stream, from its configuration before and after.
enum StreamReload: Equatable {
    /// Nothing changed: the stream and its subscribers are left alone.
    case keep
    /// Only the subscriber limits, the HTTP mount, or the socket's mode, owner or group, changed: they are applied
    /// to the running stream, whose subscribers stay connected.
    case adjust(to: StreamConfig)
    /// The source, its fallback, the outputs, its HLS, what is monitored, whether it is on demand or the socket's path changed, or a socket setting went back to its
    /// default (which only a new socket file gets): the stream ends, its subscribers told `restartedByReload`, and
    /// starts again.
    case restart
    /// The stream is gone from the configuration: it ends, its subscribers told `removedByReload`.
    case remove

    init(from old: StreamConfig, to new: StreamConfig?) {
        guard let new else {
            self = .remove
            return
        }
        if new == old {
            self = .keep
        } else if new.source == old.source && new.fallback == old.fallback && new.outputs == old.outputs
                    && new.hls == old.hls && new.monitor == old.monitor && new.onDemand == old.onDemand
                    && old.socket.canBeAdjusted(to: new.socket) {
            self = .adjust(to: new)
        } else {
            self = .restart
        }
    }
}

extension SocketConfig {
    /// Whether the socket file can take `new`'s settings by chmod and chown: same path, and each of mode, owner
    /// and group that was set is still set (a default is what a new file gets, not a value to set).
    func canBeAdjusted(to new: SocketConfig) -> Bool {
        path == new.path && (mode == nil || new.mode != nil) && (owner == nil || new.owner != nil)
            && (group == nil || new.group != nil)
    }
}
