import AudioFileStream
import AudioFileWriting

/// What a tag edit keeps, whatever the file: the edit of any input is refused with an error, or gives a file whose
/// packets our parser reads byte for byte as the input's. Shared by the tag-edit fuzz target (Fuzz/TagEdit) and
/// the replay of its findings.
public enum TagEditInvariants {
    public struct Broken: Error, CustomStringConvertible {
        public let description: String
    }

    /// The edit applied to every input: a title set in non-Latin text, a common key removed, a raw field of the
    /// file's own key space set, and new artwork where the key space holds pictures.
    static func edits(for fileType: AudioFileType) -> TagEdits {
        var edits = TagEdits()
        edits.set = [(.common(.title), "夜の歌 Ωmega"), (.common(.trackNumber), "3")]
        edits.remove = [.common(.artist)]
        switch fileType {
        case .mp3, .mp2, .mp1, .adts, .wave, .aiff, .aifc: edits.set.append((.raw(.id3, "TXXX:MOOD"), "calm"))
        case .m4a, .mpeg4, .m4b: edits.set.append((.raw(.itunes, "----:com.apple.iTunes:MOOD"), "calm"))
        case .flac, .ogg: edits.set.append((.raw(.vorbis, "MOOD"), "calm"))
        default: break
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40)
        edits.artwork = .replace(Artwork(mimeType: "image/png", pictureType: 3, description: "", size: png.count,
                                         data: png))
        return edits
    }

    /// Edits `input` as `audiostream tags --set … -o` does, and checks the result.
    /// - Throws: `Broken` when the edited file's packets are not the input's.
    public static func check(_ input: [UInt8]) throws {
        guard let original = read(input), !original.sizes.isEmpty, let fileType = original.fileType else { return }
        let edited: EditedFile
        do {
            edited = try input.withUnsafeBytes {
                try TagEditor.edit($0, fileType: fileType, current: NormalizedTags(), audioEnd: original.end,
                                   edits: edits(for: fileType))
            }
        } catch {
            // A refusal with a reason is what bad input may get.
            return
        }
        var target = ByteArrayTarget()
        try input.withUnsafeBytes { try edited.write(from: $0, to: &target) }
        guard let copy = read(target.bytes) else { throw Broken(description: "the edited file cannot be parsed") }
        guard copy.sizes == original.sizes, copy.audio == original.audio else {
            throw Broken(description: "the edited \(fileType.rawValue) file's packets differ: "
                + "\(copy.sizes.count) packets of \(copy.audio.count) bytes, "
                + "not \(original.sizes.count) of \(original.audio.count)")
        }
    }

    /// The file type, packet sizes and packet bytes our parser reads from `bytes`, and where its last packet ends;
    /// nil when it refuses them.
    static func read(_ bytes: [UInt8]) -> (fileType: AudioFileType?, sizes: [Int], audio: [UInt8], end: Int)? {
        let packets = PacketCollector()
        do {
            let stream = try AudioFileStream(fileTypeHint: nil) { packets.take($0) }
            try stream.parse(bytes)
            try stream.finish()
            guard case .fileType(let fileType)? = try? stream.property(.fileFormat) else { return nil }
            return (fileType, packets.sizes, packets.audio, Int(stream.audioEnd))
        } catch {
            return nil
        }
    }
}

/// The packets of a parse, as sizes and their bytes one after another.
private final class PacketCollector {
    var sizes: [Int] = []
    var audio: [UInt8] = []

    func take(_ event: AudioFileStreamEvent) {
        guard case .packets(let batch) = event else { return }
        guard let descriptions = batch.descriptions else {
            sizes.append(batch.bytes.count)
            audio += batch.bytes
            return
        }
        for description in descriptions {
            let start = Int(description.startOffset)
            sizes.append(Int(description.dataByteSize))
            audio += batch.bytes[start..<start + Int(description.dataByteSize)]
        }
    }
}
