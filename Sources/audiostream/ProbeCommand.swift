import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// `audiostream probe INPUT`: the stream's properties after parsing all of it, as one JSON object: `dataFormat`
/// is the last one the stream announced, `formats` every one in order (a stream may change its format), and
/// `decodedFormat` what the last one's first packets decode to. Without a whole packet, or when the stream fails
/// (a damaged sample table), it prints what the headers said and fails saying so.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Parse the whole input and print its properties as one JSON object.")

    @OptionGroup var input: InputOptions

    func run() throws {
        var formats: [JSON] = []
        let decoded = DecodedFormatProbe()
        var made: AudioFileStream?
        var failure: AudioFileStreamFailure?
        do {
            try input.parse(handler: { event in
                if case .property(.dataFormat, let format) = event { formats.append(EventJSON.value(format)) }
                decoded.consume(event)
            }, madeStream: { made = $0 })
        } catch let streamFailure as AudioFileStreamFailure {
            failure = streamFailure
        }
        guard let stream = made else { throw CommandFailure.noPacket(in: input.input) }
        func value(_ id: AudioFileStreamPropertyID) -> JSON {
            (try? stream.property(id)).map(EventJSON.value) ?? .null
        }
        let counted = stream.counted
        let out = BufferedOutput()
        out.line(JSON.object([
            ("fileFormat", value(.fileFormat)),
            ("dataFormat", value(.dataFormat)),
            ("formats", .array(formats)),
            ("decodedFormat", .optional(decoded.format) {
                EventJSON.decodedFormat(sampleRate: $0.sampleRate, channels: $0.channels)
            }),
            ("dataOffset", value(.dataOffset)),
            ("audioDataByteCount", value(.audioDataByteCount)),
            ("audioDataPacketCount", value(.audioDataPacketCount)),
            ("maximumPacketSize", value(.maximumPacketSize)),
            ("packetSizeUpperBound", value(.packetSizeUpperBound)),
            ("averageBytesPerPacket", value(.averageBytesPerPacket)),
            ("bitRate", value(.bitRate)),
            ("packetTableInfo", value(.packetTableInfo)),
            ("duration", .optional(stream.duration) { .double($0.seconds) }),
            ("durationIsEstimated", .optional(stream.duration) { .bool($0.isEstimated) }),
            ("restrictsRandomAccess", .optional(try? stream.property(.restrictsRandomAccess)) { .bool($0 == .uint32(1)) }),
            ("counted", .object([
                ("packets", .number(counted.packets)), ("frames", .number(counted.frames)), ("bytes", .number(counted.bytes)),
            ])),
        ]).text)
        try out.flush()
        if let failure { throw failure }
        guard counted.packets > 0 else { throw CommandFailure.noPacket(in: input.input) }
    }
}
