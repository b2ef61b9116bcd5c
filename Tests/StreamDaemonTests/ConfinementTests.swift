import AudioStreamProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
@testable import StreamDaemon
import Testing

/// What is confined to an event loop checks it: used from another thread, it stops the process rather than race
/// the loop. Each test runs in a process of its own, on a loop the test never runs on.
@Suite struct ConfinementTests {
    /// A precondition: it holds in release builds too.
    @Test func aHubUsedOffItsLoopStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
            _ = Member(Hub(limits: SubscriberLimits(), eventLoop: loop), [.packets])
        }
    }

    /// An assert, on the path of every chunk: it holds in debug builds, such as the tests'.
    @Test func aPipelineFedOffItsLoopStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
            let (logger, metrics) = (Logger(label: "test"), StreamMetrics(stream: "test"))
            let hubs = HubGroup(loops: [loop], home: loop, limits: SubscriberLimits(), logger: logger, metrics: metrics,
                                sendRings: SendRings(loops: [loop], logger: logger))
            let pipeline = StreamPipeline(streamName: "test", hubs: hubs, eventLoop: loop, logger: logger,
                                          metrics: metrics)
            try? pipeline.ingest(UnsafeRawBufferPointer(start: nil, count: 0), restartsFile: false)
        }
    }

    @Test func anHTTPSourceStoppedOffItsLoopStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
            let config = HTTPSourceConfig(url: URL(string: "http://127.0.0.1:9/")!)
            let delegate = SilentDelegate()
            HTTPSource(config: config, eventLoop: loop, logger: Logger(label: "test"), delegate: delegate).stop()
        }
    }
}

/// A delegate that takes whatever a source hands on.
private final class SilentDelegate: NetworkSourceDelegate {
    func sourceConnected(_ info: HTTPStreamInfo) {}
    func sourceReceived(audio: UnsafeRawBufferPointer) -> Bool { true }
    func sourceReceived(_ metadata: ICYMetadata) {}
    func sourceChanged(_ state: SourceState) {}
    func sourceEnded(failure: String?) {}
}
