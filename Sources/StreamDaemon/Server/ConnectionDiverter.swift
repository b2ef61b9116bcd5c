import NIOCore

/// What serves some of a listening socket's connections outside NIO: offered each one as it is accepted, it keeps
/// those it serves and hands back the others to be served as channels, with what it read of them.
protocol ConnectionDiverter: Sendable {
    /// Serves `connection`, accepted for `loop`, or calls `handBack` on `loop`, once, with what it read of it
    /// (nil for nothing): the connection is then NIO's. Owns the descriptor until then; closes it when done.
    func offer(_ connection: CInt, on loop: EventLoop, handBack: @escaping @Sendable (ByteBuffer?) -> Void)

    /// Closes the connections it serves.
    func close()
}
