import AudioStreamProtocol

/// A source reached over the network, which reports to its stream through `NetworkSourceDelegate` on the stream's
/// loop: an HTTP source the daemon connects to, or a push source whose clients connect to the daemon.
protocol NetworkSource: AnyObject {
    /// Starts connecting, or taking clients; called once the stream listens.
    func start()
    /// Closes the connection and ends every attempt to come; the delegate hears nothing more.
    func stop()
    /// Whether a connection is up now: a response being received, or a client pushing.
    var isConnected: Bool { get }
    /// Connections after the first.
    var reconnects: Int { get }
}

extension HTTPSource: NetworkSource {}
extension PushSource: NetworkSource {}

/// What a network source (`HTTPSource`, `PushSource`) hands on, on its stream's event loop.
protocol NetworkSourceDelegate: AnyObject {
    /// A response began, or a push source took a client: its audio follows.
    func sourceConnected(_ info: HTTPStreamInfo)
    /// Audio bytes, valid during the call only. Returns whether they completed a whole, confirmed frame: nothing
    /// but such a frame shows that a station sends audio.
    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool
    /// An ICY block unlike the one before it.
    func sourceReceived(_ metadata: ICYMetadata)
    /// The source connected, lost its connection, or will try again: see `SourceState`.
    func sourceChanged(_ state: SourceState)
    /// The source will not connect again; `failure` says why, or nil after a normal end.
    func sourceEnded(failure: String?)
}
