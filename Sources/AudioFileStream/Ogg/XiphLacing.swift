/// Xiph lacing: several packets in one blob, as a Vorbis stream's three headers are carried outside Ogg (our
/// Vorbis magic cookie, FFmpeg's Vorbis extradata, Matroska's CodecPrivate). The blob holds the count of
/// packets less one, each packet's size but the last's as a run of 255s ending on a byte below 255, then the
/// packets back to back; the last packet is the rest of the blob.
public enum XiphLacing {
    /// The blob holding `packets`, which must be 1 to 256 of them.
    public static func pack(_ packets: [[UInt8]]) -> [UInt8] {
        precondition((1...256).contains(packets.count), "Xiph lacing holds 1 to 256 packets")
        var blob: [UInt8] = [UInt8(packets.count - 1)]
        for packet in packets.dropLast() {
            blob += [UInt8](repeating: 255, count: packet.count / 255) + [UInt8(packet.count % 255)]
        }
        return blob + packets.joined()
    }

    /// The packets of `blob`, or nil when it is empty or its sizes run past its end. Never traps on any bytes.
    public static func unpack(_ blob: [UInt8]) -> [[UInt8]]? {
        guard let countLessOne = blob.first else { return nil }
        var position = 1
        var sizes: [Int] = []
        for _ in 0..<Int(countLessOne) {
            var size = 0
            while position < blob.count, blob[position] == 255 {
                size += 255
                position += 1
            }
            guard position < blob.count else { return nil }
            sizes.append(size + Int(blob[position]))
            position += 1
        }
        guard sizes.reduce(position, +) <= blob.count else { return nil }
        var packets: [[UInt8]] = []
        for size in sizes {
            packets.append(Array(blob[position..<position + size]))
            position += size
        }
        return packets + [Array(blob[position...])]
    }
}
