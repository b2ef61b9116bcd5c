extension AudioFileStream {
    /// The first PCM frame of `packet` (PacketToFrame): exact for packets already parsed, whatever their frame counts;
    /// beyond them, counted on at the format's frames per packet, or at the average where it varies. Exact everywhere
    /// for packets of one size (PCM).
    /// - Throws: `.dataUnavailable` before the format is known, `.invalidPacketOffset` for a negative or
    ///   impossibly large packet.
    public func frame(forPacket packet: Int64) throws -> Int64 {
        try Self.checkTranslatable(packet)
        if let layout = constantLayout { return packet * layout.frames }
        if let position = output.index.framePosition(ofPacket: packet) { return position }
        let (known, knownFrame) = output.index.lastKnownFramePosition
        return knownFrame + Int64((Double(packet - known) * (try framesPerPacket())).rounded())
    }

    /// The packet holding `frame`, and the frame's position in it (FrameToPacket): exact within the packets
    /// already parsed; beyond them, counted on as `frame(forPacket:)` does. Exact everywhere for
    /// packets of one size (PCM).
    /// - Throws: `.dataUnavailable` before the format is known, `.invalidPacketOffset` for a negative or
    ///   impossibly large frame.
    public func packet(forFrame frame: Int64) throws -> (packet: Int64, frameOffsetInPacket: Int) {
        try Self.checkTranslatable(frame)
        if let layout = constantLayout {
            let (packet, offset) = frame.quotientAndRemainder(dividingBy: layout.frames)
            return (packet, Int(offset))
        }
        if let found = output.index.packet(holdingFrame: frame) { return found }
        let (known, knownFrame) = output.index.lastKnownFramePosition
        let framesPerPacket = try framesPerPacket()
        let packets = (Double(frame - knownFrame) / framesPerPacket).rounded(.down)
        let start = knownFrame + Int64((packets * framesPerPacket).rounded())
        return (known + Int64(packets), Int(frame - start))
    }

    /// The byte offset of `packet` from DataOffset (PacketToByte): exact for packets already parsed, otherwise
    /// estimated from the Xing/VBRI table of contents or the average packet size. Exact everywhere for
    /// packets of one size (PCM).
    /// - Throws: `.invalidPacketOffset` for a negative or impossibly large packet, `.dataUnavailable` while fewer than 8 packets
    ///   are known and there is no table of contents.
    public func byteOffset(ofPacket packet: Int64) throws -> (offset: Int64, isEstimated: Bool) {
        try Self.checkTranslatable(packet)
        guard let dataOffset else { throw AudioFileStreamError.dataUnavailable }
        if let layout = constantLayout { return (packet * layout.bytes, false) }
        let index = output.index
        if let offset = index.offset(ofPacket: packet) { return (offset - dataOffset, false) }
        if let seekTable = output.seekTable { return (seekTable.byteOffset(ofPacket: packet), true) }
        guard index.parsedPackets >= Self.packetsForEstimates, let average = index.averagePacketSize else {
            throw AudioFileStreamError.dataUnavailable
        }
        let beyond = packet - index.packetCount
        return (index.endOffset - dataOffset + Int64((Double(beyond) * average).rounded()), true)
    }

    /// The packet holding the byte at `byteOffset` from DataOffset, and the byte's position in it (ByteToPacket):
    /// exact within the packets parsed so far, otherwise estimated from the average packet size. Exact everywhere for
    /// packets of one size (PCM).
    /// - Throws: `.invalidPacketOffset` for a negative or impossibly large offset, `.dataUnavailable` while fewer than 8 packets are
    ///   known.
    public func packet(forByteOffset byteOffset: Int64) throws
        -> (packet: Int64, byteOffsetInPacket: Int, isEstimated: Bool)
    {
        try Self.checkTranslatable(byteOffset)
        guard let dataOffset else { throw AudioFileStreamError.dataUnavailable }
        if let layout = constantLayout {
            let (packet, offset) = byteOffset.quotientAndRemainder(dividingBy: layout.bytes)
            return (packet, Int(offset), false)
        }
        let index = output.index
        if let (packet, start) = index.packet(containing: dataOffset + byteOffset) {
            return (packet, Int(dataOffset + byteOffset - start), false)
        }
        guard index.parsedPackets >= Self.packetsForEstimates, let average = index.averagePacketSize else {
            throw AudioFileStreamError.dataUnavailable
        }
        let packets = Double(dataOffset + byteOffset - index.endOffset) / average
        return (index.packetCount + Int64(packets.rounded(.down)), 0, true)
    }

    /// Where to resume feeding bytes to play from `packet`: the byte offset from DataOffset and whether it is an
    /// estimate. Feed the bytes from `dataOffset + offset` with `parse(_:discontinuity:offset:)`, the
    /// discontinuity flag set and that absolute offset.
    public func seek(toPacket packet: Int64) throws -> (offset: Int64, isEstimated: Bool) {
        try byteOffset(ofPacket: packet)
    }

    /// The bytes and frames of every packet when the format's packets are of one size (PCM): its translations
    /// are then arithmetic and exact everywhere, as Apple's are for such formats.
    private var constantLayout: (bytes: Int64, frames: Int64)? {
        guard let format = dataFormat, format.bytesPerPacket > 0, format.framesPerPacket > 0 else { return nil }
        return (Int64(format.bytesPerPacket), Int64(format.framesPerPacket))
    }

    /// Apple's translations answer `more` until this many packets give a usable average.
    private static var packetsForEstimates: Int64 { ParserOutput.packetsForEstimates }

    /// Packets, frames and bytes beyond 2^48 are no stream's, and would overflow the arithmetic.
    private static func checkTranslatable(_ value: Int64) throws {
        guard (0...1 << 48).contains(value) else { throw AudioFileStreamError.invalidPacketOffset }
    }

    /// The format's frames per packet, or the average so far where it varies.
    private func framesPerPacket() throws -> Double {
        guard let format = dataFormat else { throw AudioFileStreamError.dataUnavailable }
        if format.framesPerPacket > 0 { return Double(format.framesPerPacket) }
        let index = output.index
        guard index.parsedPackets > 0 else { throw AudioFileStreamError.dataUnavailable }
        return Double(index.frameCount) / Double(index.parsedPackets)
    }
}
