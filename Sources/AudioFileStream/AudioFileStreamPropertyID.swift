/// The properties a stream announces, with Apple's four-character codes as raw values.
public enum AudioFileStreamPropertyID: UInt32, CaseIterable, Sendable, CustomStringConvertible {
    case readyToProducePackets = 0x7265_6479  // redy
    case fileFormat = 0x6666_6D74  // ffmt
    case dataFormat = 0x6466_6D74  // dfmt
    case formatList = 0x666C_7374  // flst
    case magicCookieData = 0x6D67_6963  // mgic
    case audioDataByteCount = 0x6263_6E74  // bcnt
    case audioDataPacketCount = 0x7063_6E74  // pcnt
    case maximumPacketSize = 0x7073_7A65  // psze
    case dataOffset = 0x646F_6666  // doff
    case channelLayout = 0x636D_6170  // cmap
    case packetToFrame = 0x706B_6672  // pkfr
    case frameToPacket = 0x6672_706B  // frpk
    case packetToByte = 0x706B_6279  // pkby
    case byteToPacket = 0x6279_706B  // bypk
    case packetTableInfo = 0x706E_666F  // pnfo
    case packetSizeUpperBound = 0x706B_7562  // pkub
    case averageBytesPerPacket = 0x6162_7070  // abpp
    case bitRate = 0x6272_6174  // brat
    case restrictsRandomAccess = 0x7272_6170  // rrap
    case infoDictionary = 0x696E_666F  // info

    /// The four-character code, e.g. `dfmt`.
    public var description: String { FourCharCode(rawValue: rawValue).description }

    /// Looks a property up by its four-character code.
    public init?(code: String) {
        guard let match = Self.allCases.first(where: { $0.description == code }) else { return nil }
        self = match
    }
}
