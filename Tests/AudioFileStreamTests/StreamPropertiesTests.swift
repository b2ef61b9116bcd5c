import Testing
import FixtureSupport
@testable import AudioFileStream

/// The properties announced for each fixture agree with what ffprobe, mutagen and mpg123 recorded.
@Suite struct StreamPropertiesTests {
    static let withFacts = (Fixtures.generated + Fixtures.conformanceStreams).filter { fixture in
        // Spliced streams change format; SpliceTests covers them.
        (fixture.facts?["formatChanges"] as? [Any])?.isEmpty ?? false
    }
    /// Clean CBR streams and Xing VBR streams: ffprobe's rate for other VBR streams is a whole-file average.
    static let withBitRate = withFacts.filter { fixture in
        fixture.facts?["bitRate"] is Int && fixture.file.pathExtension != "bit"
            && (fixture.name.hasPrefix("l2-") || fixture.name.hasPrefix("l3-"))
    }
    static let withXing = withFacts.filter { $0.facts?["xing"] is [String: Any] }
    static let withLAMETag = withFacts.filter { $0.facts?["lame"] is [String: Any] }

    @Test func everyFixtureIsThere() {
        #expect(Self.withFacts.count == 58)
        #expect(Self.withBitRate.count == 18)
        #expect(Self.withXing.count == 12)
        #expect(Self.withLAMETag.count == 12)
    }

    @Test(arguments: withFacts)
    func formatMatchesRecordedFacts(fixture: Fixtures.Fixture) throws {
        let facts = try #require(fixture.facts)
        let (_, stream) = try parse(fixture.bytes)
        let format = try #require(stream.dataFormat)
        let layer = facts["layer"] as! Int
        let version = facts["mpegVersion"] as! String
        #expect(format.sampleRate == Double(facts["sampleRate"] as! Int))
        #expect(format.channelsPerFrame == UInt32(facts["channels"] as! Int))
        #expect(format.formatID == [AudioFormatID.mpegLayer1, AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer3][layer - 1])
        // ISO/IEC 11172-3 and 13818-3: 384 samples in Layer I, 1152 in Layer II, 1152 or 576 in Layer III.
        #expect(format.framesPerPacket == (layer == 1 ? 384 : layer == 2 || version == "1" ? 1152 : 576))
        #expect(try stream.property(.fileFormat) == .fileType([.mp1, .mp2, .mp3][layer - 1]))
        #expect(try stream.property(.restrictsRandomAccess) == .uint32(layer == 3 ? 1 : 0))
        #expect(try stream.property(.channelLayout) == .channelLayout(format.channelsPerFrame == 1 ? .mono : .stereo))
        #expect(try stream.property(.formatList)
            == .formatList([AudioFormatListItem(format: format, channelLayoutTag: format.channelsPerFrame == 1
                ? AudioChannelLayout.mono.tag : AudioChannelLayout.stereo.tag)]))
        #expect(stream.dataOffset == Int64(facts["firstPacketOffset"] as! Int))
        #expect(stream.counted.packets == Int64(facts["packetCount"] as! Int))
        #expect(stream.counted.frames == Int64(facts["packetCount"] as! Int) * Int64(format.framesPerPacket))
        #expect(throws: AudioFileStreamError.valueUnknown) { try stream.property(.magicCookieData) }
    }

    @Test(arguments: withBitRate)
    func bitRateMatchesFFprobe(fixture: Fixtures.Fixture) throws {
        let (_, stream) = try parse(fixture.bytes)
        guard case .uint32(let bitRate) = try stream.property(.bitRate) else { Issue.record("no bit rate"); return }
        let recorded = fixture.facts!["bitRate"] as! Int
        let isVBR = fixture.facts?["xing"].flatMap { $0 as? [String: Any] }.map { $0["isInfo"] as? Bool == false } ?? false
        if isVBR {
            // ffprobe derives a VBR rate from the Xing counts as we do; allow rounding.
            #expect(abs(Int(bitRate) - recorded) <= 1000, "\(bitRate) vs \(recorded)")
        } else {
            #expect(Int(bitRate) == recorded)
        }
    }

    @Test(arguments: withXing)
    func xingCountsAreAnnounced(fixture: Fixtures.Fixture) throws {
        let xing = fixture.facts!["xing"] as! [String: Any]
        let (events, stream) = try parse(fixture.bytes)
        #expect(try stream.property(.audioDataPacketCount) == .uint64(UInt64(xing["frames"] as! Int)))
        // Encoders count the tag's own frame in the byte count; the audio data excludes it.
        let tagFrameSize = Int(stream.dataOffset!) - ((fixture.facts!["tagFrames"] as? [Int])?.first ?? 0)
        #expect(try stream.property(.audioDataByteCount) == .uint64(UInt64(xing["bytes"] as! Int - tagFrameSize)))
        #expect(!events.packets.contains { $0.offset < stream.dataOffset! }, "the Xing frame is not a packet")
    }

    /// A file cut right after its Xing frame (mutagen's bad-POPM-frame.mp3 is one) still states the stream: the
    /// frame's format and counts, and no packet.
    @Test(arguments: withXing)
    func aXingFrameAloneStatesTheStream(fixture: Fixtures.Fixture) throws {
        let xing = fixture.facts!["xing"] as! [String: Any]
        let whole = try parse(fixture.bytes).stream
        let (events, stream) = try parse(Array(fixture.bytes[..<(Int(try #require(whole.dataOffset)) + 21)]))
        #expect(events.packets.isEmpty)
        #expect(stream.dataFormat == whole.dataFormat)
        #expect(try stream.property(.audioDataPacketCount) == .uint64(UInt64(xing["frames"] as! Int)))
        #expect(stream.duration?.seconds == whole.duration?.seconds)
    }

    @Test(arguments: withLAMETag)
    func lameTagGivesGaplessPacketTable(fixture: Fixtures.Fixture) throws {
        let facts = fixture.facts!
        let lame = facts["lame"] as! [String: Any]
        let (_, stream) = try parse(fixture.bytes)
        let delay = lame["encoderDelay"] as! Int
        let padding = lame["encoderPadding"] as! Int
        // mpg123 decodes gaplessly from the same LAME tag: its sample count is the valid frame count.
        let expected = PacketTableInfo(
            validFrames: Int64(facts["mpg123Samples"] as! Int), primingFrames: Int32(delay + 529),
            remainderFrames: Int32(padding - 529))
        #expect(try stream.property(.packetTableInfo) == .packetTableInfo(expected))
        if let original = facts["originalSamples"] as? Int {
            #expect(expected.validFrames == Int64(original), "the encoder's source length")
        }
        #expect(stream.duration?.isEstimated == false)
        #expect(stream.duration?.seconds == Double(expected.validFrames) / stream.dataFormat!.sampleRate)
    }

    @Test func headerSetEndsWithReadyBeforeAnyPacket() throws {
        let (events, _) = try parse(Fixtures.named("l3-vbr-v2.mp3").bytes)
        let ready = try #require(events.firstIndex { if case .property(.readyToProducePackets, _) = $0 { true } else { false } })
        let firstPacket = try #require(events.firstIndex { if case .packet = $0 { true } else { false } })
        #expect(ready == firstPacket - 1)
        let announced = events[..<ready].compactMap { if case .property(let id, _) = $0 { id } else { nil } }
        #expect(Set(announced) == [
            .fileFormat, .dataFormat, .formatList, .channelLayout, .restrictsRandomAccess, .packetSizeUpperBound,
            .bitRate, .audioDataByteCount, .audioDataPacketCount, .packetTableInfo, .dataOffset,
        ])
    }

    @Test func propertiesBeforeTheHeaderAreUnavailable() throws {
        let stream = try AudioFileStream { _ in }
        #expect(throws: AudioFileStreamError.dataUnavailable) { try stream.property(.dataFormat) }
        #expect(throws: AudioFileStreamError.dataUnavailable) { try stream.property(.maximumPacketSize) }
        #expect(throws: AudioFileStreamError.unsupportedProperty) { try stream.property(.packetToByte) }
    }

    @Test func maximumAndAveragePacketSizeFollowThePackets() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let (_, stream) = try parse(fixture.bytes)
        let sizes = fixture.expectedPackets.map(\.size)
        #expect(try stream.property(.maximumPacketSize) == .uint32(UInt32(sizes.max()!)))
        #expect(try stream.property(.averageBytesPerPacket) == .float64(Double(sizes.reduce(0, +)) / Double(sizes.count)))
        // Layer III at 44.1 kHz: 320 kbit/s with padding is 1045 bytes.
        #expect(try stream.property(.packetSizeUpperBound) == .uint32(1045))
    }
}

extension StreamPropertiesTests {
    @Test func vbriCountsAndTableOfContentsAreRead() throws {
        let fixture = Fixtures.named("l3-vbri.mp3")
        let vbri = fixture.facts!["vbri"] as! [String: Any]  // as mutagen's VBRIHeader read it
        let packets = fixture.expectedPackets
        let stream = try AudioFileStream { _ in }
        try stream.parse(Array(fixture.bytes[..<Int(packets[2].offset)]))
        #expect(try stream.property(.audioDataPacketCount) == .uint64(UInt64(vbri["frames"] as! Int)))
        let tagFrameSize = Int(packets[0].offset)
        #expect(try stream.property(.audioDataByteCount) == .uint64(UInt64(vbri["bytes"] as! Int - tagFrameSize)))
        // Before enough packets for an average, the VBRI table of contents gives the estimate.
        let estimate = try stream.byteOffset(ofPacket: 30)
        #expect(estimate.isEstimated)
        #expect(abs(estimate.offset - (packets[30].offset - packets[0].offset)) < 418)
    }

    /// A VBR stream without its Xing frame: BitRate is the running average of its packets (ffprobe's list),
    /// not the first frame's rate.
    @Test func vbrWithoutXingMeasuresItsBitRate() throws {
        let fixture = Fixtures.named("l3-vbr-v2.mp3")
        let packets = fixture.expectedPackets
        let audio = Array(fixture.bytes[Int(packets[0].offset)...])
        var bitRates: [UInt32] = []
        let stream = try AudioFileStream { event in
            if case .property(.bitRate, .uint32(let rate)) = event { bitRates.append(rate) }
        }
        try feed(audio, to: stream, chunking: .random(seed: 4))
        let bytes = packets.reduce(0) { $0 + $1.size }
        let average = (Double(bytes) * 8 * 44100 / Double(packets.count * 1152)).rounded()
        #expect(bitRates.count > 1, "the first frame's rate, then the running average")
        #expect(bitRates.last == UInt32(average))
    }
}
