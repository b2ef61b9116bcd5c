/// Coarse packet→byte points from a Xing or VBRI table of contents, interpolated for estimated seeks.
struct SeekTable: Equatable {
    /// Pairs of (packet, byte offset from the first packet), ascending, starting at (0, 0).
    let points: [(packet: Int64, byte: Int64)]

    static func == (lhs: SeekTable, rhs: SeekTable) -> Bool {
        lhs.points.elementsEqual(rhs.points) { $0 == $1 }
    }

    /// The estimated byte offset of `packet` from the first packet.
    func byteOffset(ofPacket packet: Int64) -> Int64 {
        guard let after = points.firstIndex(where: { $0.packet > packet }) else {
            return points.last.map { $0.byte } ?? 0
        }
        let before = points[max(after - 1, 0)]
        let next = points[after]
        let fraction = Double(packet - before.packet) / Double(next.packet - before.packet)
        return before.byte + Int64((Double(next.byte - before.byte) * fraction).rounded())
    }
}
