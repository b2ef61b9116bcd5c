import ArgumentParser
import AudioFileStream
import AudioFileWriting
import AudioRecording
#if canImport(Glibc)
import Glibc
#endif

/// `audiostream tags INPUT --set KEY=VALUE… [--remove KEY…] [--artwork FILE] -o OUT`: a copy with its tags
/// edited in the file's own key space.
extension TagsCommand {
    /// The edits the options name.
    /// - Throws: `ValidationError` for a KEY that is neither a common key nor `SPACE:ID`, or a setting without `=`.
    func edits() throws -> TagEdits {
        func key(_ text: String) throws -> TagKey {
            guard let key = TagKey(text) else {
                throw ValidationError("unknown tag key '\(text)': use a common key (title, artist …) or id3:ID, itunes:ID, vorbis:ID")
            }
            return key
        }
        var edits = TagEdits()
        for setting in set {
            guard let equals = setting.firstIndex(of: "=") else { throw ValidationError("--set takes KEY=VALUE, not '\(setting)'") }
            edits.set.append((try key(String(setting[..<equals])), String(setting[setting.index(after: equals)...])))
        }
        for name in remove {
            if name == "artwork" { edits.artwork = .remove } else { edits.remove.append(try key(name)) }
        }
        if edits.artwork != nil, artworkPath != nil { throw ValidationError("--artwork and --remove artwork exclude each other") }
        return edits
    }

    func writeCopy(to output: String) throws {
        guard input != "-" else { throw CommandFailure("tags -o edits a file: name it, not standard input") }
        var edits = try edits()
        if let artworkPath { edits.artwork = .replace(try Self.picture(at: artworkPath)) }
        try Self.write(edits, of: input, to: output)
    }

    /// Writes `input` with `edits` made to its tags to `output` (which may be `input` itself, replaced), its
    /// audio untouched.
    static func write(_ edits: TagEdits, of input: String, to output: String) throws {
        let (found, stream) = try Self.read(input, limits: MetadataLimits())
        guard stream.counted.packets > 0 else { throw CommandFailure.noPacket(in: input) }
        guard case .fileType(let fileType) = try stream.property(.fileFormat) else {
            throw CommandFailure("\(input): the file type is not known")
        }
        let descriptor = open(input, O_RDONLY)
        guard descriptor >= 0 else { throw CommandFailure.system("cannot open \(input)") }
        defer { close(descriptor) }
        guard let mapping = FileMapping(descriptor: descriptor) else { throw CommandFailure("\(input): not a regular file") }
        defer { mapping.unmap() }
        let edited = try TagEditor.edit(mapping.bytes, fileType: fileType, current: commonTags(of: found),
                                        audioEnd: Int(stream.audioEnd), edits: edits)
        Interrupt.install()
        var file = try OutputFile.open(output)
        do {
            // A file replaced (the input itself, with -o INPUT) keeps who may read and write it.
            var replaced = stat()
            if file.path != "-", stat(file.path, &replaced) == 0, chmod(file.target.path, replaced.st_mode & 0o7777) != 0 {
                throw CommandFailure.system("cannot give \(file.target.path) the permissions of \(file.path)")
            }
            try edited.write(from: mapping.bytes, to: &file.target) {
                if Interrupt.requested { throw CommandFailure("interrupted: \(output) was not written") }
            }
            try file.complete(replacing: true)
        } catch {
            file.discard()
            throw error
        }
    }

    /// The picture in the file at `path`, as a front cover.
    private static func picture(at path: String) throws -> Artwork {
        var chunks = ChunkSizes.fixed(64 * 1024)
        var data: [UInt8] = []
        try InputFile(path: path).forEachChunk(sizes: &chunks) { chunk, _ in
            data += chunk
            guard data.count <= artworkLimits.maxArtworkBytes else {
                throw CommandFailure("\(path): a picture larger than \(artworkLimits.maxArtworkBytes) bytes")
            }
        }
        let mimeType = ImageFormat.mimeType(of: data[...])
        guard !mimeType.isEmpty else { throw CommandFailure("\(path): not a JPEG, PNG, GIF or BMP picture") }
        return Artwork(mimeType: mimeType, pictureType: 3, description: "", size: data.count, data: data)
    }
}
