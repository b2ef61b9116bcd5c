import ArgumentParser
import AudioFileStream
import StreamDaemon

/// `audiostream probe INPUT`: the stream's properties after parsing all of it, as one JSON object.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Parse the whole input and print its properties as one JSON object.")

    @OptionGroup var input: InputOptions

    func run() throws {
        let decoded = DecodedFormatProbe()
        let stream = try input.parse(handler: decoded.consume)
        guard stream.dataFormat != nil else { throw CommandFailure("\(input.input): no audio packets found") }
        func value(_ id: AudioFileStreamPropertyID) -> JSON {
            (try? stream.property(id)).map(EventJSON.value) ?? .null
        }
        let counted = stream.counted
        let out = BufferedOutput()
        out.line(JSON.object([
            ("fileFormat", value(.fileFormat)),
            ("dataFormat", value(.dataFormat)),
            ("decodedFormat", .optional(decoded.format, EventJSON.decodedFormat)),
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
    }
}
