import AudioFileStream
import AudioFileWriting

/// AAC access units as an ADTS stream (ISO/IEC 13818-7 §6.2), which players take over HTTP as `audio/aac`:
/// each unit behind the header an `.aac` file has (`ADTSHeader`).
struct ADTSFraming: ListenerFraming {
    let contentType = "audio/aac"
    private var header: ADTSHeader

    /// Nil when ADTS cannot say the format (see `ADTSHeader`).
    init?(format: AudioStreamBasicDescription) {
        guard let header = ADTSHeader(format: format) else { return nil }
        self.header = header
    }

    mutating func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? {
        // A unit longer than an ADTS frame holds cannot be said, so it is left out.
        guard header.describe(unitLength: packet.count) else { return [] }
        var frame = header.bytes
        frame.reserveCapacity(header.bytes.count + packet.count)
        frame += packet
        return frame
    }
}
