import NIOCore

/// A whole message read from a socket: its type byte and payload.
struct WireFrame {
    let type: UInt8
    let payload: ByteBuffer
}

/// Cuts a socket's bytes into messages (length, type, payload), refusing lengths over the protocol's limit.
struct WireFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = WireFrame

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length >= 1, length <= WireProtocol.maximumMessageSize else {
            throw WireError.badLength(Int(length))
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        let type: UInt8 = buffer.readInteger()!
        let payload = buffer.readSlice(length: Int(length) - 1)!
        context.fireChannelRead(wrapInboundOut(WireFrame(type: type, payload: payload)))
        return .continue
    }
}
