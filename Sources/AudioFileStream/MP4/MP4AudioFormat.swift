/// What an audio track's sample description (`stsd`, ISO/IEC 14496-12 §12.2.3) says of its packets: the
/// DataFormat, the magic cookie and channel layout, stated as the elementary-stream and Ogg readers state them
/// for the same codecs. AAC (`mp4a` with `esds`), ALAC (`alac`), AC-3 (`ac-3` with `dac3`), E-AC-3 (`ec-3`
/// with `dec3`), Opus (`Opus` with `dOps`) and FLAC (`fLaC` with `dfLa`) are read; QuickTime files may wrap
/// the configuration in a `wave` box.
struct MP4AudioFormat {
    var format: AudioStreamBasicDescription
    /// The codec's configuration as its decoder takes it: the AudioSpecificConfig, the ALACSpecificConfig, an
    /// OpusHead built from `dOps`, FLAC's STREAMINFO; nil for AC-3 and E-AC-3, which need none.
    var magicCookie: [UInt8]?
    var channelLayout: AudioChannelLayout?
    /// True when every packet holds the format's frames per packet (AAC, AC-3, E-AC-3), so the last packet's
    /// shorter duration in the sample table is padding to trim, not fewer frames.
    var hasConstantFrames: Bool
    /// The FormatList's items before the DataFormat's: HE-AAC's and HE-AACv2's layers, richest first.
    var extensionLayers: [AudioFormatListItem] = []

    /// The sample entry's codec four-character code, for messages about tracks not read.
    static func codecName(ofDescriptions box: MP4Box, in bytes: UnsafeRawBufferPointer) -> String {
        guard box.content.count >= 16 else { return "unknown" }
        return FourCharCode(rawValue: bytes.bigEndianUInt32(at: box.content.lowerBound + 12)).description
    }

    /// Reads the first sample entry of an `stsd` box; nil when its codec is not one this library frames.
    /// - Throws: `MP4Invalid` when the entry is cut short.
    init?(descriptions box: MP4Box, in bytes: UnsafeRawBufferPointer, depth: Int) throws(MP4Invalid) {
        var fields = MP4FieldReader(box, in: bytes)
        _ = try fields.versionAndFlags()
        guard try fields.uint32() > 0 else { return nil }
        guard let entry = try MP4Box.children(of: fields.position..<fields.end, in: bytes, depth: depth + 1).first
        else { return nil }
        var entryFields = MP4FieldReader(entry, in: bytes)
        // SampleEntry: 6 reserved bytes and the data reference index; then QuickTime's sound description version
        // (0 in ISO files), which adds 16 (version 1) or 36 (version 2) bytes before the boxes.
        try entryFields.skip(8)
        let version = try entryFields.uint16()
        try entryFields.skip(6)
        let channels = Int(try entryFields.uint16())
        try entryFields.skip(6)  // sample size, compression id, packet size
        let rate = Int(try entryFields.uint32() >> 16)
        try entryFields.skip(version == 1 ? 16 : version == 2 ? 36 : 0)
        var boxes = try MP4Box.children(of: entryFields.position..<entryFields.end, in: bytes, depth: depth + 2)
        if let wave = boxes.first(where: { $0.type == "wave" }) {
            boxes += try MP4Box.children(of: wave.content, in: bytes, depth: depth + 3)
        }
        func content(_ type: FourCharCode, skipping header: Int = 0) -> UnsafeRawBufferPointer? {
            guard let box = boxes.first(where: { $0.type == type }), box.content.count >= header else { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[box.content.lowerBound + header..<box.content.upperBound])
        }
        let entryType = entry.type
        switch entryType {
        case "mp4a":
            guard let esds = content("esds", skipping: 4).flatMap(ElementaryStreamDescriptor.init),
                  [0x40, 0x66, 0x67, 0x68].contains(esds.objectType),
                  let config = esds.decoderSpecificInfo.withUnsafeBytes(AudioSpecificConfig.init) else { return nil }
            self.init(aac: config, cookie: esds.decoderSpecificInfo, channels: channels)
        case "alac":
            guard let config = content("alac", skipping: 4), config.count >= 24 else { return nil }
            self.init(alac: config)
        case "ac-3":
            guard let dac3 = content("dac3"), dac3.count >= 3 else { return nil }
            self.init(ac3: dac3)
        case "ec-3":
            guard let dec3 = content("dec3"), dec3.count >= 5 else { return nil }
            self.init(eac3: dec3, sampleRate: rate)
        case "Opus":
            guard let dOps = content("dOps"), dOps.count >= 11 else { return nil }
            self.init(opus: dOps)
        case "fLaC":
            // A full box, then metadata blocks of which STREAMINFO comes first.
            guard let dfLa = content("dfLa", skipping: 4), dfLa.count >= 4 + FLACStreamInfo.length,
                  dfLa[0] & 0x7F == 0, let streamInfo = FLACStreamInfo(UnsafeRawBufferPointer(rebasing: dfLa[4...])),
                  streamInfo.sampleRate > 0 else { return nil }
            self.init(flac: streamInfo)
        default:
            return nil
        }
    }
}
