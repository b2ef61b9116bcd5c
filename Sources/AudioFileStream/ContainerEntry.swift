/// A container format as the sniffer sees it: the bytes a file of it starts with, and its reader. Adding a
/// container means adding it to `all`.
struct ContainerEntry: Sendable {
    let fileType: AudioFileType
    /// Whether a stream starting with these bytes (at least `FormatSniffer.signatureLength` of them, or all
    /// there are) is of this container.
    let matches: @Sendable (UnsafeRawBufferPointer) -> Bool
    /// The container's reader, or nil while this library recognises the container but cannot read it.
    let reader: (@Sendable (MetadataLimits) -> any FormatReader)?
    /// True when the signature may follow a leading ID3v2 tag, which the reader then reads (taggers put one
    /// before `fLaC`).
    let readsLeadingTag: Bool

    /// Every container; a stream matching one that has no reader is refused as an unsupported type.
    static let all = [
        ContainerEntry(.ogg, signature: "OggS", reader: { OggReader(limits: $0) }),
        ContainerEntry(.flac, signature: "fLaC", readsLeadingTag: true, reader: { FLACReader(limits: $0) }),
        ContainerEntry(.wave, signature: "RIFF", form: "WAVE", reader: { WAVEReader(limits: $0) }),
        ContainerEntry(.rf64, signature: "RF64", form: "WAVE", reader: { WAVEReader(limits: $0) }),
        ContainerEntry(.bw64, signature: "BW64", form: "WAVE", reader: { WAVEReader(limits: $0) }),
        ContainerEntry(.aiff, signature: "FORM", form: "AIFF", reader: { AIFFReader(limits: $0) }),
        ContainerEntry(.aifc, signature: "FORM", form: "AIFC", reader: { AIFFReader(limits: $0) }),
        // Other RIFF and IFF forms (AVI, 8SVX …) are known, and refused.
        ContainerEntry(AudioFileType(rawValue: "RIFF"), signature: "RIFF", reader: nil),
        ContainerEntry(AudioFileType(rawValue: "FORM"), signature: "FORM", reader: nil),
        ContainerEntry(AudioFileType(rawValue: "caff"), signature: "caff", reader: { CAFReader(limits: $0) }),
        // ISO base media files start with `ftyp`; DASH and CMAF segments with `styp`; some writers begin with `moov`.
        ContainerEntry(.mpeg4, matches: { bytes in
            ["ftyp", "styp", "moov"].contains { bytes.dropFirst(4).starts(with: $0.utf8) }
        }, reader: { MP4Reader(limits: $0) }),
    ]

    private init(_ fileType: AudioFileType, matches: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
                 readsLeadingTag: Bool = false, reader: (@Sendable (MetadataLimits) -> any FormatReader)?) {
        self.fileType = fileType
        self.matches = matches
        self.readsLeadingTag = readsLeadingTag
        self.reader = reader
    }

    private init(_ fileType: AudioFileType, signature: String, readsLeadingTag: Bool = false,
                 reader: (@Sendable (MetadataLimits) -> any FormatReader)?) {
        let bytes = Array(signature.utf8)
        self.init(fileType, matches: { $0.starts(with: bytes) }, readsLeadingTag: readsLeadingTag, reader: reader)
    }

    /// A RIFF or IFF form: the outer chunk's id, then its size, then the form type at byte 8.
    private init(_ fileType: AudioFileType, signature: String, form: String,
                 reader: @escaping @Sendable (MetadataLimits) -> any FormatReader) {
        let bytes = Array(signature.utf8)
        let formBytes = Array(form.utf8)
        self.init(fileType, matches: { $0.starts(with: bytes) && $0.dropFirst(8).starts(with: formBytes) },
                  reader: reader)
    }
}
