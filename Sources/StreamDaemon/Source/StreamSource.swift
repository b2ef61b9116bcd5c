import AudioStreamProtocol
import NIOCore

/// A stream's source, of any kind: a network source (`NetworkSource`) reporting to its `NetworkSourceDelegate`, a
/// reader handing its chunks to its `SourceReader.Deliver`. Started and stopped on the stream's loop.
protocol StreamSource: AnyObject {
    /// Starts reading: what it reads reaches the receiver it was made with.
    func start()
    /// Stops reading: its receiver gets nothing more it would have to act on.
    func stop()
    /// Whether it delivers now: a network source's response is under way; a reader reads.
    var isConnected: Bool { get }
    /// Its own part of `audiostream status`.
    var status: [(String, JSON)] { get }
    /// Whether Icecast source clients connect to it, each an encoder of its own (a push source): it has nothing to
    /// play until the first one comes, and each one's stream starts afresh.
    var takesClients: Bool { get }
    /// Takes the source client of `request` if the source takes clients and this one, sending the mount's `codec`
    /// (when known), may push now.
    func admit(_ request: SourceClientRequest, codec: MountCodec?) -> Result<PushSession, PushRefusal>
    /// The address and user agent of the source client pushing now, if any.
    var clientIdentity: ClientIdentity? { get }
    /// Closes the connection it reads now, if any, which is lost for `reason`: a push source's client leaves the
    /// mount to the next; an HTTP source connects again as its policy says.
    /// - Returns: whether there was one.
    func dropConnection(reason: String) -> Bool
}

extension StreamSource {
    var takesClients: Bool { false }

    func admit(_ request: SourceClientRequest, codec: MountCodec?) -> Result<PushSession, PushRefusal> {
        .failure(.notPush)
    }

    var clientIdentity: ClientIdentity? { nil }

    func dropConnection(reason: String) -> Bool { false }
}

extension NetworkSource {
    /// Whether it is connected, and how many times it connected again.
    var status: [(String, JSON)] { [("connected", .bool(isConnected)), ("reconnects", .number(reconnects))] }
}

extension HTTPSource: StreamSource {}
extension PushSource: StreamSource {
    var takesClients: Bool { true }
}

/// What reads a source on a thread of its own (standard input, a file) and hands each chunk over as
/// `SourceReader.Deliver` says.
protocol ChunkReader: AnyObject, Sendable {
    func start(deliver: @escaping SourceReader.Deliver)
    func stop()
}

extension SourceReader: ChunkReader {}

/// A reader as a stream source: each output it reads on its thread is taken by `take` on the stream's loop, the
/// thread waiting for the answer.
final class ReaderSource: StreamSource {
    private let reader: any ChunkReader
    private let eventLoop: EventLoop
    private let take: (SourceReader.Output) -> Double?

    init(_ reader: any ChunkReader, eventLoop: EventLoop, take: @escaping (SourceReader.Output) -> Double?) {
        self.reader = reader
        self.eventLoop = eventLoop
        self.take = take
    }

    func start() {
        // Made here, on the loop: the box checks that it is reached there only.
        let take = NIOLoopBound(take, eventLoop: eventLoop)
        let eventLoop = eventLoop
        // Waiting for each chunk to be parsed keeps memory bounded, and paces a file by the audio it holds.
        reader.start { output in (try? eventLoop.submit { take.value(output) }.wait()) ?? nil }
    }

    func stop() {
        reader.stop()
    }

    /// A reader reads until it ends, which ends it as a source.
    var isConnected: Bool { true }

    var status: [(String, JSON)] { [] }
}
