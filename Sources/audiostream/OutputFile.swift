#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import AudioFileWriting
import AudioRecording

/// Where a command that writes a whole file puts it (`-o OUT`): standard output for `-` or a path naming it,
/// otherwise a regular file, which is replaced in one rename once complete. A symbolic link is followed to the
/// file it names, so that `-o INPUT` through a link edits the file; a device, a FIFO or a folder is refused.
enum OutputFile {
    /// The file to write for `output`.
    /// - Throws: `WriteError.notRegularFile` for anything but a regular file or a free name; the system's error.
    static func open(_ output: String) throws -> PieceFile {
        if BufferedOutput.namesStandardOutput(output) { return try PieceFile.standardOutput() }
        return try PieceFile(path: resolved(output))
    }

    /// The container `output`'s extension names, nil for standard output (the codec's own then).
    /// - Throws: `ValidationError` when a file's extension names none.
    static func container(for output: String) throws -> Container? {
        if BufferedOutput.namesStandardOutput(output) { return nil }
        guard let container = Container(fileName: output) else {
            throw ValidationError("\(output): the extension names no container "
                + "(.mp3, .m4a, .aac, .ogg, .opus, .flac, .ac3, .wav), and - is standard output")
        }
        return container
    }

    /// `output`, or the file its symbolic links lead to.
    /// - Throws: `WriteError.notRegularFile` when that is neither a regular file nor free.
    static func resolved(_ output: String) throws -> String {
        guard FileKind(path: output) == .symbolicLink else {
            try FileKind.requireReplaceable(output)
            return output
        }
        guard let real = realpath(output, nil) else {
            throw WriteError.notRegularFile(path: output, kind: "a symbolic link to nothing")
        }
        defer { free(real) }
        let path = String(cString: real)
        try FileKind.requireReplaceable(path)
        return path
    }
}
