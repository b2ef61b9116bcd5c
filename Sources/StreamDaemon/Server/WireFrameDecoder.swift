import AudioStreamProtocol
import NIOCore

/// A whole message read from a socket: its type byte and payload.
struct WireFrame {
    let type: UInt8
    let payload: ByteBuffer
}

/// Cuts a socket's bytes into messages (length, type, payload), refusing lengths over the protocol's limit.
struct WireFrameDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = WireFrame

    /// What a client sends is a small JSON object: a hello or a request is refused beyond this.
    static let maximumRequestSize = 64 * 1024

    /// Takes the first whole message off `buffer`, or nil while it is incomplete.
    /// - Throws: `WireError.badLength` for a length of 0 or over `maximumRequestSize`.
    mutating func decode(buffer: inout ByteBuffer) throws -> WireFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        guard length >= 1, length <= Self.maximumRequestSize else {
            throw WireError.badLength(Int(length))
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        let type: UInt8 = buffer.readInteger()!
        return WireFrame(type: type, payload: buffer.readSlice(length: Int(length) - 1)!)
    }

    mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> WireFrame? {
        try decode(buffer: &buffer)
    }
}
