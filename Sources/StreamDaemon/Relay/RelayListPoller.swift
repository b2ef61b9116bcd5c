import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1

/// Reads an Icecast master's mount list (`/admin/streamlist.txt`, with the relay account's Basic authentication,
/// as icecast2's slaves ask it) at once and then every `interval` seconds, and hands each list that differs from
/// the last to `listed`. A failed reading changes nothing: what is relayed stays until the master answers again.
///
/// Confined to its event loop, which every entry point checks.
final class RelayListPoller {
    let config: RelayConfig
    private let client: OutboundHTTP
    private let eventLoop: EventLoop
    private let logger: Logger
    private let listed: ([String]) -> Void
    private var last: [String]?
    private var failing = false
    private var next: Scheduled<Void>?
    private var stopped = false

    init(config: RelayConfig, client: OutboundHTTP, eventLoop: EventLoop, logger: Logger,
         listed: @escaping ([String]) -> Void) {
        self.config = config
        self.client = client
        self.eventLoop = eventLoop
        self.logger = logger
        self.listed = listed
    }

    func start() {
        eventLoop.preconditionInEventLoop()
        let interval = config.interval.secondsText
        logger.info("relaying the mounts of \(config.master.absoluteString), reading their list every \(interval) s")
        read()
    }

    /// Stops reading; `listed` is not called again.
    func stop() {
        eventLoop.preconditionInEventLoop()
        stopped = true
        next?.cancel()
    }

    private func read() {
        let credentials = BasicCredentials(user: config.user, password: config.password)
        // The answer must come within the interval, and a master that is slow to list is not a reason to relay nothing.
        let timeout = TimeAmount.nanoseconds(Int64(min(config.interval, 30) * 1e9))
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        client.fetch(config.mountListURL, headers: ["Authorization": credentials.authorization], timeout: timeout,
                     on: eventLoop).whenComplete { result in
            let poller = loopBound.value
            guard !poller.stopped else { return }
            poller.received(result)
            poller.next = poller.eventLoop.scheduleTask(in: .nanoseconds(Int64(poller.config.interval * 1e9))) {
                loopBound.value.read()
            }
        }
    }

    private func received(_ result: Result<HTTPClient.Response, any Error>) {
        let problem: String
        switch result {
        case .success(let response) where response.status == .ok:
            let mounts = MasterMountList.mounts(in: String(buffer: response.body ?? ByteBuffer()))
            if failing { logger.info("the master lists its mounts again") }
            failing = false
            if mounts.count == MasterMountList.maximumMounts {
                logger.warning("the master lists \(MasterMountList.maximumMounts) mounts or more: only the first are relayed")
            }
            guard mounts != last else { return }
            last = mounts
            return listed(mounts)
        case .success(let response) where response.status == .unauthorized:
            problem = "the master refused user \(config.user) and the relay password (401)"
        case .success(let response):
            problem = "the master answered \(response.status.code) \(response.status.reasonPhrase)"
        case .failure(let error):
            problem = NetworkErrorText.describe(error)
        }
        // Said once a run of failures, not at every reading.
        if !failing {
            logger.warning("cannot read the master's mount list: \(problem); relaying what it listed last")
        }
        failing = true
    }
}
