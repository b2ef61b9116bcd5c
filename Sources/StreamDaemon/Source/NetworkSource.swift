/// A source reached over the network, which reports to its stream through `HTTPSourceDelegate` on the stream's
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
