import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// When a stream's hubs get what its pipeline sends: within the limits' `writeInterval`, on an event loop whose
/// clock each test moves (`EmbeddedEventLoop`), with the in-memory subscribers of HubTests.
@Suite struct HubGroupTests {
    static func group(writeInterval: Double, on loop: EmbeddedEventLoop) -> HubGroup {
        HubGroup(loops: [loop], home: loop, limits: SubscriberLimits(writeInterval: writeInterval),
                 logger: .init(label: "test"), metrics: StreamMetrics(stream: "test"))
    }

    /// What comes within one interval goes out together once the first has waited it, every message in order.
    @Test func messagesWaitAtMostTheWriteIntervalAndGoOutTogether() throws {
        let loop = EmbeddedEventLoop()
        let group = Self.group(writeInterval: 0.1, on: loop)
        let member = Member(group.hub(on: loop), [.packets])
        let packets = TestPacket.run(3)
        for (index, packet) in packets.enumerated() {
            group.send(.packet(packet.message))
            group.flush()
            if index < 2 { loop.advanceTime(by: .milliseconds(40)) }
        }
        #expect(try member.received() == [.welcome])
        loop.advanceTime(by: .milliseconds(20))
        #expect(try member.received() == [.welcome] + packets.map(Received.packet))
        #expect(member.sink.writes == 2)
    }

    /// With an interval of 0 each flush writes at once; whatever the interval, the end does not wait.
    @Test(arguments: [0, 0.1])
    func theEndAndAZeroIntervalWriteAtOnce(writeInterval: Double) throws {
        let loop = EmbeddedEventLoop()
        let group = Self.group(writeInterval: writeInterval, on: loop)
        let member = Member(group.hub(on: loop), [.packets])
        let packet = TestPacket.run(1)[0]
        group.send(.packet(packet.message))
        group.flush()
        let packetWaits = writeInterval > 0
        #expect(try member.received() == [.welcome] + (packetWaits ? [] : [.packet(packet)]))
        group.send(.end(TestEvent.end.buffer))
        group.flush()
        #expect(try member.received() == [.welcome, .packet(packet), TestEvent.end.received])
    }

    /// A reload's new interval applies from the next message.
    @Test func aNewWriteIntervalAppliesToWhatComesNext() throws {
        let loop = EmbeddedEventLoop()
        let group = Self.group(writeInterval: 0.5, on: loop)
        let member = Member(group.hub(on: loop), [.packets])
        _ = group.update(limits: SubscriberLimits(writeInterval: 0))
        loop.run()
        let packet = TestPacket.run(1)[0]
        group.send(.packet(packet.message))
        group.flush()
        #expect(try member.received() == [.welcome, .packet(packet)])
    }
}
