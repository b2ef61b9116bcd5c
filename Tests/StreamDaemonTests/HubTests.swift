import AudioFileStream
import AudioStreamProtocol
import Foundation
import NIOCore
import NIOEmbedded
@testable import StreamDaemon
import Testing

/// The hub and its subscribers' queues without sockets: in-memory sinks whose writability each test controls, and
/// what they received decoded with `WireMessage`, as a client reads it. Each hub lives on an embedded loop of the
/// test's thread, so its confinement checks run as in the daemon.
///
/// Packets last a quarter second (250 frames at 1000 Hz) so that seconds add up exactly, and every expected value
/// comes from the packets and events a test publishes and the policy of docs/protocol.md.
@Suite struct HubTests {
    static let roomy = SubscriberLimits(queueSeconds: 100, disconnectAfter: 100, historySeconds: 100)

    @Test func everySubscriberGetsOnlyTheKindsItAskedForInOrder() throws {
        let demand = PCMDemand()
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop(), demand: demand)
        let packetsOnly = Member(hub, [.packets])
        let propertiesOnly = Member(hub, [.properties])
        let metadataOnly = Member(hub, [.metadata])
        let pcmS16 = Member(hub, [.pcm])
        let pcmF32 = Member(hub, [.pcm], pcm: PCMRequest(encoding: .f32))
        let everything = Member(hub, [.packets, .properties, .metadata])
        #expect(Set(demand.requests) == [PCMRequest(encoding: .s16), PCMRequest(encoding: .f32)])

        let packets = TestPacket.run(5)
        let format = TestEvent.property(.dataFormat, 1)
        let bitRate = TestEvent.property(.bitRate, 128_000)
        let title = TestEvent.metadata("first")
        let gap = TestEvent.inputDiscontinuity(at: packets[3].offset)
        // Two stereo frames; 1.0 clips to 32767 in 16 bits.
        let samples: [Float] = [0.5, -0.25, 1.0, -1.0]
        let pcm = [WirePCMEncoding.s16, .f32].map { TestPCM(samples, encoding: $0) }

        format.publish(to: hub)
        title.publish(to: hub)
        for packet in packets[..<3] { hub.publishPacket(packet.message) }
        gap.publish(to: hub)
        hub.publishPCM([PCMRequest(encoding: .s16): [pcm[0].message], PCMRequest(encoding: .f32): [pcm[1].message]])
        for packet in packets[3...] { hub.publishPacket(packet.message) }
        bitRate.publish(to: hub)
        hub.flush()

        let allPackets = packets.map(Received.packet)
        // The format is what packets cannot be used without: a subscriber of packets gets it unasked.
        #expect(try packetsOnly.received() == [.welcome, format.received] + allPackets[..<3] + [gap.received]
            + allPackets[3...])
        #expect(try propertiesOnly.received() == [.welcome, format.received, gap.received, bitRate.received])
        #expect(try metadataOnly.received() == [.welcome, title.received, gap.received])
        let s16 = [16384, -8192, 32767, -32768].flatMap { Int16($0).littleEndianBytes }
        let f32 = samples.flatMap(\.bitPattern.littleEndianBytes)
        #expect(try pcmS16.received() == [.welcome, gap.received, .pcm(pcm[0].fields, samples: s16)])
        #expect(try pcmF32.received() == [.welcome, gap.received, .pcm(pcm[1].fields, samples: f32)])
        #expect(try everything.received() == [.welcome, format.received, title.received] + allPackets[..<3]
            + [gap.received] + allPackets[3...] + [bitRate.received])

        // The stream decodes only to the formats subscribers still want.
        hub.remove(pcmF32.subscriber)
        #expect(demand.requests == [PCMRequest(encoding: .s16)])
    }

    /// Pictures go to the subscribers that asked for artwork, whatever their kinds; a newcomer gets the current
    /// one; a subscriber that has not read one yet when the next comes gets only the newer.
    @Test func artworkReachesWhoAskedForItTheLatestPictureOnly() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let withArtwork = Member(hub, [.metadata], artwork: true)
        let without = Member(hub, [.metadata])
        let stalled = Member(hub, [.packets], artwork: true, writable: false)
        let pictures = [[UInt8](repeating: 1, count: 300), [2, 3, 4]].map { picture in
            (description: JSON.object([("event", .string("artwork")), ("size", .number(picture.count))]),
             picture: picture)
        }
        // Two chunks of input, each with a new picture.
        for (description, picture) in pictures {
            hub.publishArtwork(WireEncoding.artwork(description, picture: picture, allocator: ByteBufferAllocator()))
            hub.flush()
        }
        let received = pictures.map { Received.artwork($0.description.text, picture: $0.picture) }
        #expect(try withArtwork.received() == [.welcome] + received)
        #expect(try without.received() == [.welcome])
        stalled.resume()
        #expect(try stalled.received() == [.welcome, received[1]])
        let newcomer = Member(hub, [.properties], artwork: true)
        #expect(try newcomer.received() == [.welcome, received[1]])
    }

    /// How much of the recent audio a newcomer asks for, what the stream keeps, and the packets it must get.
    struct BurstCase: Sendable, CustomTestStringConvertible {
        let asked: Double
        let queueSeconds: Double
        let historySeconds: Double
        /// The most recent packets of a quarter second that are due: the fewest covering `asked`, within the
        /// history and the queue.
        let expectedPackets: Int

        var testDescription: String {
            "burst \(asked) s, queue \(queueSeconds) s, history \(historySeconds) s: \(expectedPackets) packets"
        }
    }

    @Test(arguments: [
        BurstCase(asked: 0, queueSeconds: 100, historySeconds: 3, expectedPackets: 0),
        BurstCase(asked: 1, queueSeconds: 100, historySeconds: 3, expectedPackets: 4),
        BurstCase(asked: 1.1, queueSeconds: 100, historySeconds: 3, expectedPackets: 5),
        BurstCase(asked: 10, queueSeconds: 100, historySeconds: 3, expectedPackets: 12),
        BurstCase(asked: 10, queueSeconds: 2, historySeconds: 3, expectedPackets: 8),
        BurstCase(asked: 1, queueSeconds: 100, historySeconds: 0, expectedPackets: 0),
    ])
    func aNewcomerGetsTheCurrentStateThenItsBurst(_ burst: BurstCase) throws {
        let limits = SubscriberLimits(
            queueSeconds: burst.queueSeconds, disconnectAfter: 100, historySeconds: burst.historySeconds)
        let hub = Hub(limits: limits, eventLoop: EmbeddedEventLoop())
        let state = StreamState.publish(to: hub)
        let newcomer = Member(hub, [.packets, .properties, .metadata], burst: burst.asked)
        #expect(try newcomer.received() == [.welcome] + state.current
            + state.packets.suffix(burst.expectedPackets))
    }

    @Test func aNewcomerGetsOnlyTheStateItAskedFor() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let state = StreamState.publish(to: hub)
        let properties = Member(hub, [.properties], burst: 10)
        let metadata = Member(hub, [.metadata], burst: 10)
        let packets = Member(hub, [.packets])
        #expect(try properties.received() == [.welcome] + state.properties)
        #expect(try metadata.received() == [.welcome, state.lastMetadata])
        #expect(try packets.received() == [.welcome, state.format])
    }

    @Test func aSubscriberOfPacketsWithoutPropertiesGetsTheFormatAndCookieWheneverTheyChange() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let packetsOnly = Member(hub, [.packets])
        let packetsAndMetadata = Member(hub, [.packets, .metadata])
        let pcmOnly = Member(hub, [.pcm])
        let format = TestEvent.property(.dataFormat, 1)
        let cookie = TestEvent.property(.magicCookieData, 7)
        let bitRate = TestEvent.property(.bitRate, 128_000)
        let newFormat = TestEvent.property(.dataFormat, 2)
        let packets = TestPacket.run(2)
        for event in [format, cookie, bitRate] { event.publish(to: hub) }
        hub.publishPacket(packets[0].message)
        newFormat.publish(to: hub)
        hub.publishPacket(packets[1].message)
        hub.flush()

        let expected = [.welcome, format.received, cookie.received, .packet(packets[0]), newFormat.received,
                        .packet(packets[1])]
        #expect(try packetsOnly.received() == expected)
        #expect(try packetsAndMetadata.received() == expected)
        #expect(try pcmOnly.received() == [.welcome])
        // A newcomer gets their current values, in the order they first appeared, and still not the bit rate.
        let newcomer = Member(hub, [.packets])
        #expect(try newcomer.received() == [.welcome, newFormat.received, cookie.received])
    }

    /// A codec no decoder reads concerns PCM subscribers alone: packet subscribers still get its packets.
    @Test func anUndecodableFormatIsToldToPCMSubscribersOnly() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let packetsOnly = Member(hub, [.packets, .properties, .metadata])
        let pcmOnly = Member(hub, [.pcm])
        let unsupported = TestEvent(kind: .pcm, json: EventJSON.unsupportedDataFormat("ima4"))
        let packet = TestPacket.run(1)[0]
        unsupported.publish(to: hub)
        hub.publishPacket(packet.message)
        hub.flush()

        #expect(try pcmOnly.received() == [.welcome, unsupported.received])
        #expect(try packetsOnly.received() == [.welcome, .packet(packet)])
    }

    @Test func sourceEventsReachTheSubscribersOfMetadataOrPropertiesAndNewcomersGetTheLast() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let packetsOnly = Member(hub, [.packets])
        let pcmOnly = Member(hub, [.pcm])
        let metadata = Member(hub, [.metadata])
        let properties = Member(hub, [.properties, .packets])
        let title = TestEvent.metadata("Now", source: "icy")
        let lost = TestEvent.source(.lost(error: "HTTP 503 Service Unavailable"))
        let reconnecting = TestEvent.source(.reconnecting(attempt: 1, delay: 0.5))
        for event in [title, lost, reconnecting] { event.publish(to: hub) }
        hub.flush()

        #expect(try packetsOnly.received() == [.welcome])
        #expect(try pcmOnly.received() == [.welcome])
        #expect(try metadata.received() == [.welcome, title.received, lost.received, reconnecting.received])
        #expect(try properties.received() == [.welcome, lost.received, reconnecting.received])
        #expect(try Member(hub, [.metadata]).received() == [.welcome, title.received, reconnecting.received])
        #expect(try Member(hub, [.properties]).received() == [.welcome, reconnecting.received])
        #expect(try Member(hub, [.packets, .pcm]).received() == [.welcome])
    }

    @Test func newLimitsReachTheSubscribersAlreadyConnectedAndTheHistory() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let stalled = Member(hub, [.packets], writable: false)
        let packets = TestPacket.run(8)
        for packet in packets[..<2] { hub.publishPacket(packet.message) }
        hub.update(limits: SubscriberLimits(queueSeconds: 1, disconnectAfter: 100, historySeconds: 0.5))
        for packet in packets[2...] { hub.publishPacket(packet.message) }
        hub.flush()
        stalled.resume()

        // The 1 s queue keeps the last four quarter-second packets; a burst gets the 0.5 s the history keeps.
        #expect(try stalled.received() == [
            .welcome, .overflow(Overflow(resumingAt: packets[4], dropped: packets[..<4])),
        ] + packets[4...].map(Received.packet))
        #expect(try Member(hub, [.packets], burst: 10).received() == [.welcome] + packets.suffix(2).map(Received.packet))
        hub.update(limits: SubscriberLimits(queueSeconds: 1, disconnectAfter: 100, historySeconds: 0))
        #expect(try Member(hub, [.packets], burst: 10).received() == [.welcome])
    }

    @Test func aNewcomerGetsTheLastMetadataOfEachSourceInTheOrderTheyAppeared() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let station = TestEvent.metadata("Radio", source: "http")
        let titles = [TestEvent.metadata("One", source: "icy"), TestEvent.metadata("Two", source: "icy")]
        let tag = TestEvent.metadata("Tagged", source: "id3v2")
        hub.publishMetadata(station.buffer, from: "http")
        hub.publishMetadata(titles[0].buffer, from: "icy")
        hub.publishMetadata(tag.buffer, from: "id3v2")
        hub.publishMetadata(titles[1].buffer, from: "icy")
        let newcomer = Member(hub, [.metadata])
        #expect(try newcomer.received() == [.welcome, station.received, titles[1].received, tag.received])
    }

    @Test func aBurstLargerThanTheQueueIsCutToFitItWithoutAnOverflowEvent() throws {
        let hub = Hub(limits: SubscriberLimits(queueSeconds: 2, disconnectAfter: 100, historySeconds: 10),
                      eventLoop: EmbeddedEventLoop())
        // Packets of 0.75 s: two fit in the 2 s queue, a third would not.
        let packets = TestPacket.run(8, frames: 750)
        for packet in packets { hub.publishPacket(packet.message) }
        let newcomer = Member(hub, [.packets], burst: 10)
        #expect(try newcomer.received() == [.welcome] + packets.suffix(2).map(Received.packet))
    }

    @Test func aFullQueueDropsTheOldestWholePacketsAndSaysHowManyBeforeTheNext() throws {
        let hub = Hub(limits: SubscriberLimits(queueSeconds: 1, disconnectAfter: 100, historySeconds: 0),
                      eventLoop: EmbeddedEventLoop())
        let stalled = Member(hub, [.packets, .properties], writable: false)
        let steady = Member(hub, [.packets, .properties])
        let packets = TestPacket.run(11)
        let format = TestEvent.property(.dataFormat, 1)
        let publish = { (packet: TestPacket) in
            hub.publishPacket(packet.message)
            hub.flush()
        }

        publish(packets[0])
        publish(packets[1])
        format.publish(to: hub)
        // Four packets fill the 1 s queue; the fifth and sixth push out the first two.
        packets[2...5].forEach(publish)
        #expect(stalled.subscriber.queuedSeconds == 1)
        stalled.resume()
        let firstGap = Overflow(resumingAt: packets[2], dropped: packets[0...1])
        let firstStall = [.welcome, format.received, .overflow(firstGap)] + packets[2...5].map(Received.packet)
        #expect(try stalled.received() == firstStall)

        // A second stall is a second gap, counted from zero.
        stalled.sink.isWritable = false
        packets[6...].forEach(publish)
        stalled.resume()
        let secondStall = [.overflow(Overflow(resumingAt: packets[7], dropped: packets[6...6]))]
            + packets[7...].map(Received.packet)
        #expect(try stalled.received() == firstStall + secondStall)
        #expect(stalled.subscriber.droppedPackets == 3)
        #expect(try steady.received() == [.welcome] + packets[...1].map(Received.packet) + [format.received]
            + packets[2...].map(Received.packet))
    }

    @Test func eventsAreNeverDropped() throws {
        let hub = Hub(limits: SubscriberLimits(queueSeconds: 0.5, disconnectAfter: 100, historySeconds: 0),
                      eventLoop: EmbeddedEventLoop())
        let stalled = Member(hub, [.packets, .properties, .metadata], writable: false)
        let packets = TestPacket.run(20)
        let events = packets.indices.map { index in
            switch index % 3 {
            case 0: TestEvent.property(.bitRate, index)
            case 1: TestEvent.metadata("title \(index)")
            default: TestEvent.inputDiscontinuity(at: packets[index].offset)
            }
        }
        for (packet, event) in zip(packets, events) {
            hub.publishPacket(packet.message)
            event.publish(to: hub)
        }
        stalled.resume()

        // The 0.5 s queue keeps the last two packets; every event stays where it was published.
        var expected: [Received] = [.welcome]
        for (index, (packet, event)) in zip(packets, events).enumerated() {
            if index == 18 { expected.append(.overflow(Overflow(resumingAt: packet, dropped: packets[..<18]))) }
            if index >= 18 { expected.append(.packet(packet)) }
            expected.append(event.received)
        }
        #expect(try stalled.received() == expected)
    }

    @Test func aSubscriberIsDisconnectedOnlyAfterStayingBehindForDisconnectAfter() {
        let limits = SubscriberLimits(queueSeconds: 1, disconnectAfter: 2, historySeconds: 0)
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
        func at(_ seconds: Double) -> NIODeadline { start + .nanoseconds(Int64(seconds * 1e9)) }
        let packets = TestPacket.run(12).map(\.message)

        // Behind from the fifth packet at 0 s, never catching up.
        let neverCatchesUp = Member(limits: limits, now: start)
        #expect(packets[...4].allSatisfy { neverCatchesUp.subscriber.enqueue($0, now: at(0)) })
        #expect(neverCatchesUp.subscriber.enqueue(packets[5], now: at(1.9)))
        #expect(!neverCatchesUp.subscriber.enqueue(packets[6], now: at(2.1)))

        // Catching up (an empty queue) ends being behind; the next drop starts the clock again.
        let catchesUp = Member(limits: limits, now: start)
        #expect(packets[...5].allSatisfy { catchesUp.subscriber.enqueue($0, now: at(0)) })
        catchesUp.resume()
        catchesUp.sink.isWritable = false
        #expect(packets[6...10].allSatisfy { catchesUp.subscriber.enqueue($0, now: at(2.5)) })
        #expect(catchesUp.subscriber.enqueue(packets[11], now: at(4.4)))
        #expect(!catchesUp.subscriber.enqueue(packets[11], now: at(4.6)))

        // A queue that waits without overflowing is not behind, however long it waits.
        let waits = Member(limits: limits, now: start)
        #expect(waits.subscriber.enqueue(packets[0], now: at(0)))
        #expect(waits.subscriber.enqueue(TestEvent.metadata("late").message, now: at(1000)))
    }

    @Test func theHubClosesAndForgetsASubscriberBehindTooLong() throws {
        let hub = Hub(limits: SubscriberLimits(queueSeconds: 1, disconnectAfter: 1, historySeconds: 0),
                      eventLoop: EmbeddedEventLoop())
        let stalled = Member(hub, [.packets], writable: false)
        let steady = Member(hub, [.packets])
        // The stalled one started dropping long ago (its clock is explicit; the hub's is the real one).
        for packet in TestPacket.run(5) {
            #expect(stalled.subscriber.enqueue(packet.message, now: .distantPast))
        }
        let next = TestPacket.run(6)[5]
        hub.publishPacket(next.message)
        hub.flush()

        #expect(stalled.sink.closing == .now)
        #expect(hub.subscribers.map(\.id) == [steady.subscriber.id])
        #expect(hub.disconnectedSlow == 1)
        #expect(try steady.received() == [.welcome, .packet(next)])
    }

    @Test func endClosesEachSubscriberOnceItsQueueIsWritten() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let reading = Member(hub, [.packets])
        let stalled = Member(hub, [.properties], writable: false)
        let packets = TestPacket.run(2)
        let format = TestEvent.property(.dataFormat, 1)
        for packet in packets { hub.publishPacket(packet.message) }
        format.publish(to: hub)
        hub.flush()
        hub.end(TestEvent.end.buffer)

        #expect(try reading.received() == [.welcome] + packets.map(Received.packet)
            + [format.received, TestEvent.end.received])
        #expect(reading.sink.closing == .afterPendingWrites)
        #expect(try stalled.received() == [])
        #expect(stalled.sink.closing == nil)
        stalled.resume()
        #expect(try stalled.received() == [.welcome, format.received, TestEvent.end.received])
        #expect(stalled.sink.closing == .afterPendingWrites)

        // One joining after the end gets the state and the end, then is closed.
        let late = Member(hub, [.packets, .properties])
        #expect(try late.received() == [.welcome, format.received, TestEvent.end.received])
        #expect(late.sink.closing == .afterPendingWrites)
    }

    /// A connection closed while the end is written to it (NIO closes a channel whose last write completes at
    /// once) leaves the hub there and then; the hub must keep nothing of it, or it would keep its queue, its
    /// connection and, through them, the stopped stream, for ever.
    @Test func aSubscriberThatLeavesAsTheStreamEndsIsForgotten() {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let sink = LeavingSink()
        weak var left: Subscriber?
        do {
            let subscriber = hub.add(sink, hello: Hello(kinds: [.packets]), welcome: nil)
            sink.onClose = { hub.remove(subscriber) }
            left = subscriber
        }
        hub.end(TestEvent.end.buffer)
        #expect(hub.subscribers.isEmpty)
        #expect(left == nil)
    }

    @Test func aSubscriberLeavingAMegabyteOfEventsUnreadIsDisconnected() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let stalled = Member(hub, [.metadata], writable: false)
        let reading = Member(hub, [.metadata])
        let event = TestEvent.metadata(String(repeating: "x", count: 1000))
        // Events are never dropped, so only the cap bounds what a stalled subscriber holds.
        let count = Subscriber.maximumQueuedEventBytes / event.buffer.readableBytes + 1
        for _ in 0..<count { event.publish(to: hub) }
        hub.flush()

        #expect(stalled.sink.closing == .now)
        #expect(hub.subscribers.map(\.id) == [reading.subscriber.id])
        #expect(try reading.received().count == 1 + count)
    }

    @Test func aReadingSubscriberLosesNothingPublishedBetweenTwoFlushes() throws {
        let loop = EmbeddedEventLoop()
        let limits = SubscriberLimits(queueSeconds: 1, disconnectAfter: 100, historySeconds: 0)
        let hub = Hub(limits: limits, eventLoop: loop)
        let reading = Member(hub, [.packets])
        // 2 s of audio in one chunk of input, handed over at once as the pipeline does, written out at its slot's
        // phase of the write interval.
        let packets = TestPacket.run(8)
        hub.apply(packets.map { .packet($0.message) })
        loop.advanceTime(by: .nanoseconds(Int64(limits.writeInterval * 1e9)))
        let received = try reading.received()
        #expect(received == [.welcome] + packets.map(Received.packet))
    }

    /// Between two flushes a subscriber that keeps up gets everything published for it, in order, in one write
    /// made once for all its kind; one that asked for other kinds gets its own; one behind queues them.
    @Test func caughtUpSubscribersGetWhatWasPublishedInOneWriteInOrder() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let readers = [Member(hub, [.packets]), Member(hub, [.packets])]
        let metadataOnly = Member(hub, [.metadata])
        let stalled = Member(hub, [.packets], writable: false)
        let writesBefore = readers.map(\.sink.writes)
        let packets = TestPacket.run(6)
        let title = TestEvent.metadata("title")
        let gap = TestEvent.inputDiscontinuity(at: packets[3].offset)
        for packet in packets[..<3] { hub.publishPacket(packet.message) }
        title.publish(to: hub)
        gap.publish(to: hub)
        for packet in packets[3...] { hub.publishPacket(packet.message) }
        hub.flush()

        let expected = [.welcome] + packets[..<3].map(Received.packet) + [gap.received]
            + packets[3...].map(Received.packet)
        for (reader, before) in zip(readers, writesBefore) {
            #expect(try reader.received() == expected)
            #expect(reader.sink.writes == before + 1)
        }
        #expect(try metadataOnly.received() == [.welcome, title.received, gap.received])
        #expect(try stalled.received() == [])
        stalled.resume()
        #expect(try stalled.received() == expected)
    }

    /// A subscriber that joins between two flushes gets the state then, and only what is published after it.
    @Test func aNewcomerBetweenTwoFlushesGetsWhatFollowsItOnce() throws {
        let hub = Hub(limits: Self.roomy, eventLoop: EmbeddedEventLoop())
        let early = Member(hub, [.packets, .properties])
        let packets = TestPacket.run(4)
        let format = TestEvent.property(.dataFormat, 1)
        format.publish(to: hub)
        for packet in packets[..<2] { hub.publishPacket(packet.message) }
        let newcomer = Member(hub, [.packets, .properties])
        for packet in packets[2...] { hub.publishPacket(packet.message) }
        hub.flush()

        #expect(try early.received() == [.welcome, format.received] + packets.map(Received.packet))
        #expect(try newcomer.received() == [.welcome, format.received] + packets[2...].map(Received.packet))
    }

    /// On a loop, what is published waits for each subscriber's slot: the slots write at phases spread over the
    /// write interval, so each subscriber gets a chunk within the interval, in one write, every message in order.
    @Test func eachSlotWritesWithinTheWriteIntervalAtItsOwnPhase() throws {
        let loop = EmbeddedEventLoop()
        let hub = Hub(limits: SubscriberLimits(writeInterval: 0.08), eventLoop: loop)
        let members = (0..<WriteSlot.count).map { _ in Member(hub, [.packets]) }
        let packets = TestPacket.run(2)
        hub.apply(packets.map { .packet($0.message) })
        #expect(try members.allSatisfy { try $0.received() == [.welcome] })

        // Eight slots over 80 ms: one every 10 ms.
        let expected = [.welcome] + packets.map(Received.packet)
        for written in 1...WriteSlot.count {
            loop.advanceTime(by: .milliseconds(10))
            let done = try members.map { try $0.received() == expected }
            #expect(done.filter { $0 }.count == written)
        }
        #expect(members.allSatisfy { $0.sink.writes == 2 })
    }

    /// With an interval of 0 each chunk is written at once; whatever the interval, the end does not wait.
    @Test(arguments: [0, 0.1])
    func theEndAndAZeroIntervalWriteAtOnce(writeInterval: Double) throws {
        let loop = EmbeddedEventLoop()
        let hub = Hub(limits: SubscriberLimits(writeInterval: writeInterval), eventLoop: loop)
        let member = Member(hub, [.packets])
        let packet = TestPacket.run(1)[0]
        hub.apply([.packet(packet.message)])
        #expect(try member.received() == [.welcome] + (writeInterval > 0 ? [] : [.packet(packet)]))
        hub.apply([.end(TestEvent.end.buffer)])
        #expect(try member.received() == [.welcome, .packet(packet), TestEvent.end.received])
        #expect(member.sink.closing == .afterPendingWrites)
    }
}

// MARK: - A subscriber in memory

/// A subscriber of a hub, or on its own, with its in-memory sink.
struct Member {
    let subscriber: Subscriber
    let sink: MemorySink

    /// Joins `hub` with a hello asking for `kinds`.
    init(
        _ hub: Hub, _ kinds: Set<Hello.Kind>, burst: Double = 0, pcm: PCMRequest = PCMRequest(), artwork: Bool = false,
        writable: Bool = true
    ) {
        sink = MemorySink(writable: writable)
        subscriber = hub.add(
            sink, hello: Hello(kinds: kinds, pcm: pcm, burstSeconds: burst, artwork: artwork),
            welcome: Welcome.buffer)
    }

    /// A subscriber outside any hub, stalled, for driving its queue directly.
    init(limits: SubscriberLimits, now: NIODeadline) {
        sink = MemorySink(writable: false)
        subscriber = Subscriber(id: 1, hello: Hello(kinds: [.packets]), sink: sink, limits: limits, now: now)
    }

    /// The sink takes messages again and the subscriber writes what it queued.
    func resume() {
        sink.isWritable = true
        subscriber.drain()
    }

    func received() throws -> [Received] { try sink.received() }
}

/// A connection that leaves its hub as soon as it is closed, as a channel does in `channelInactive`.
final class LeavingSink: SubscriberSink {
    let isWritable = true
    /// What closing does, once.
    var onClose: (() -> Void)?

    func write(_ message: ByteBuffer) {}
    func flush() {}

    func close(afterPendingWrites: Bool) {
        let leave = onClose
        onClose = nil
        leave?()
    }
}

/// A subscriber's socket in memory: takes messages while writable and records how it was closed.
final class MemorySink: SubscriberSink {
    enum Closing: Equatable { case now, afterPendingWrites }

    var isWritable: Bool
    private(set) var closing: Closing?
    private var written: [ByteBuffer] = []
    /// Writes made so far, however many messages each held.
    var writes: Int { written.count }

    init(writable: Bool) {
        isWritable = writable
    }

    func write(_ message: ByteBuffer) {
        #expect(isWritable, "a message was written to a full sink")
        #expect(closing == nil, "a message was written after close")
        written.append(message)
    }

    func flush() {}

    func close(afterPendingWrites: Bool) {
        closing = afterPendingWrites ? .afterPendingWrites : .now
    }

    /// Every message written so far, framed and decoded as a client reads its socket's bytes: a write may hold
    /// several messages (`PublishedBatch`), never part of one.
    func received() throws -> [Received] {
        try written.flatMap { buffer in
            var buffer = buffer
            var messages: [Received] = []
            while buffer.readableBytes > 0 {
                guard let length = buffer.readInteger(as: UInt32.self), let type = buffer.readInteger(as: UInt8.self),
                      let payload = buffer.readSlice(length: Int(length) - 1)
                else { throw WireError.truncated }
                messages.append(try Received(WireMessage(type: type, payload: ArraySlice(payload.readableBytesView))))
            }
            return messages
        }
    }
}

// MARK: - What a client reads

/// A received message in a form tests compare whole.
enum Received: Equatable, CustomStringConvertible {
    case welcome
    case event(String)
    case overflow(Overflow)
    case packet(TestPacket)
    case pcm(PCMFields, samples: [UInt8])
    case artwork(String, picture: [UInt8])
    case other(String)

    init(_ message: WireMessage) throws {
        switch message {
        case .json(.welcome, let text):
            #expect(text == Welcome.json.text)
            self = .welcome
        case .json(.event, let text):
            self = Overflow(json: text).map(Received.overflow) ?? .event(text)
        case .json(let type, let text):
            self = .other("\(type) \(text)")
        case .packet(let packet):
            self = .packet(TestPacket(
                offset: packet.offset, timestamp: packet.timestamp, frames: packet.frames, bytes: Array(packet.bytes)))
        case .pcm(let pcm):
            let fields = PCMFields(
                timestamp: pcm.timestamp, sampleRate: pcm.sampleRate, channels: pcm.channels, encoding: pcm.encoding)
            self = .pcm(fields, samples: Array(pcm.samples))
        case .artwork(let artwork):
            self = .artwork(artwork.description, picture: Array(artwork.picture))
        }
    }

    var description: String {
        switch self {
        case .welcome: "welcome"
        case .event(let text): text
        case .overflow(let overflow): "\(overflow)"
        case .packet(let packet): "packet \(packet.offset)+\(packet.bytes.count)"
        case .pcm(let fields, let samples): "pcm \(fields) \(samples)"
        case .artwork(let description, let picture): "artwork \(description) \(picture.count) bytes"
        case .other(let text): text
        }
    }
}

/// The fields of an `overflow` discontinuity event.
struct Overflow: Equatable, Decodable {
    let offset: Int64
    let skippedBytes: Int
    let droppedPackets: Int
    let droppedFrames: Int

    /// The event due when `dropped` were lost and `packet` is the next one delivered.
    init(resumingAt packet: TestPacket, dropped: ArraySlice<TestPacket>) {
        offset = packet.offset
        skippedBytes = dropped.reduce(0) { $0 + $1.bytes.count }
        droppedPackets = dropped.count
        droppedFrames = dropped.reduce(0) { $0 + $1.frames }
    }

    /// Reads an event's JSON, or nil when it is not an overflow discontinuity.
    init?(json text: String) {
        struct Header: Decodable {
            let event: String
            let reason: String?
        }
        let data = Data(text.utf8)
        guard let header = try? JSONDecoder().decode(Header.self, from: data),
              header.event == "discontinuity", header.reason == "overflow",
              let fields = try? JSONDecoder().decode(Self.self, from: data)
        else { return nil }
        self = fields
    }
}

/// The fields of a PCM message before its samples.
struct PCMFields: Equatable {
    let timestamp: Int64
    let sampleRate: Int
    let channels: Int
    let encoding: WirePCMEncoding
}

// MARK: - What tests publish

/// A packet a test publishes, and what a client must read back.
struct TestPacket: Equatable {
    static let sampleRate = 1000

    let offset: Int64
    let timestamp: Int64
    let frames: Int
    let bytes: [UInt8]

    /// `count` packets back to back from the start of a stream, `frames` long each, of distinct sizes and bytes.
    static func run(_ count: Int, frames: Int = 250) -> [TestPacket] {
        var offset: Int64 = 0
        return (0..<count).map { index in
            let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: index + 1), count: 100 + 7 * index)
            defer { offset += Int64(bytes.count) }
            return TestPacket(offset: offset, timestamp: Int64(index * frames), frames: frames, bytes: bytes)
        }
    }

    /// The packet as the pipeline hands it to the hub.
    var message: QueuedMessage {
        let buffer = bytes.withUnsafeBytes {
            WireEncoding.packet($0, offset: offset, timestamp: timestamp, frames: frames, allocator: .init())
        }
        let audio = AudioSpan(offset: offset, bytes: bytes.count, frames: frames, sampleRate: Self.sampleRate)
        return QueuedMessage(buffer: buffer, audio: audio)
    }
}

/// Decoded PCM a test publishes: interleaved stereo float samples at 1000 Hz.
struct TestPCM {
    let samples: [Float]
    let encoding: WirePCMEncoding

    init(_ samples: [Float], encoding: WirePCMEncoding) {
        self.samples = samples
        self.encoding = encoding
    }

    var fields: PCMFields {
        PCMFields(timestamp: 0, sampleRate: TestPacket.sampleRate, channels: 2, encoding: encoding)
    }

    var message: QueuedMessage {
        let buffer = samples.withUnsafeBytes {
            WireEncoding.pcm(floats: $0, sampleRate: fields.sampleRate, channels: fields.channels,
                             timestamp: fields.timestamp, encoding: encoding, truncating: false, allocator: .init())
        }
        let audio = AudioSpan(offset: 0, bytes: samples.count * 4, frames: samples.count / fields.channels,
                              sampleRate: fields.sampleRate)
        return QueuedMessage(buffer: buffer, audio: audio)
    }
}

/// The welcome a hub's subscribers get first, as the stream service builds it.
enum Welcome {
    static let json = JSON.object([("protocol", .number(WireProtocol.version)), ("stream", .string("test"))])
    static var buffer: ByteBuffer { WireEncoding.message(.welcome, json: json, allocator: .init()) }
}

/// An event a test publishes, and what a client must read back.
struct TestEvent {
    /// How the hub is given the event, which decides who gets it.
    enum Kind {
        case property(AudioFileStreamPropertyID)
        case metadata
        /// For every subscriber: a discontinuity of the input, the end.
        case everyone
        /// What a network source is going through.
        case source
        /// About the PCM, for its subscribers.
        case pcm
    }

    let kind: Kind
    let json: JSON

    static let end = TestEvent(kind: .everyone, json: EventJSON.end(.sourceEnded(failure: nil)))

    static func source(_ state: SourceState) -> TestEvent {
        TestEvent(kind: .source, json: EventJSON.source(state))
    }

    static func property(_ id: AudioFileStreamPropertyID, _ value: Int) -> TestEvent {
        TestEvent(kind: .property(id), json: .object([
            ("event", .string("property")), ("id", .string(id.description)), ("value", .number(value)),
        ]))
    }

    static func metadata(_ title: String, source: String = "test") -> TestEvent {
        TestEvent(kind: .metadata, json: .object([
            ("event", .string("metadata")), ("source", .string(source)), ("tags", .object([("title", .string(title))])),
        ]))
    }

    static func inputDiscontinuity(at offset: Int64) -> TestEvent {
        TestEvent(kind: .everyone, json: .object([
            ("event", .string("discontinuity")), ("offset", .number(offset)), ("skippedBytes", .number(0)),
            ("reason", .string("input")),
        ]))
    }

    var buffer: ByteBuffer { WireEncoding.message(.event, json: json, allocator: .init()) }
    var message: QueuedMessage { QueuedMessage(buffer: buffer, audio: nil) }
    var received: Received { .event(json.text) }

    func publish(to hub: Hub) {
        switch kind {
        case .property(let id): hub.publishProperty(id, buffer)
        case .metadata: hub.publishMetadata(buffer, from: "id3v2")
        case .everyone: hub.publishEvent(buffer)
        case .source: hub.publishSource(buffer)
        case .pcm: hub.publishPCMEvent(buffer)
        }
    }
}

/// A stream's state before a newcomer joins: properties (one changed since it first appeared), two metadata
/// events, and 5 s of packets.
struct StreamState {
    let packets: [Received]
    /// The latest value of each property, in the order they first appeared.
    let properties: [Received]
    /// The latest format.
    let format: Received
    let lastMetadata: Received

    /// The properties, then the last metadata: what a newcomer asking for both gets before its burst.
    var current: [Received] { properties + [lastMetadata] }

    static func publish(to hub: Hub) -> StreamState {
        let format = TestEvent.property(.dataFormat, 1)
        let bitRate = TestEvent.property(.bitRate, 128_000)
        let newFormat = TestEvent.property(.dataFormat, 2)
        let ready = TestEvent.property(.readyToProducePackets, 1)
        let metadata = [TestEvent.metadata("first"), TestEvent.metadata("second")]
        let packets = TestPacket.run(20)
        for event in [format, metadata[0], bitRate] { event.publish(to: hub) }
        for packet in packets[..<10] { hub.publishPacket(packet.message) }
        for event in [newFormat, metadata[1], ready] { event.publish(to: hub) }
        for packet in packets[10...] { hub.publishPacket(packet.message) }
        return StreamState(
            packets: packets.map(Received.packet), properties: [newFormat, bitRate, ready].map(\.received),
            format: newFormat.received,
            lastMetadata: metadata[1].received)
    }
}

extension FixedWidthInteger {
    fileprivate var littleEndianBytes: [UInt8] { withUnsafeBytes(of: littleEndian, Array.init) }
}
