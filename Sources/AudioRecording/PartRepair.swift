#if canImport(Glibc)
import Glibc
#endif
import AudioFileStream
import AudioFileWriting

/// Makes whole files of the pieces a recording left as `.part` (a kill -9, a power cut, a full disk): each is
/// read with the parser and written again with the packets it holds, under the name it was meant to have.
public enum PartRepair {
    /// Repairs every `.part` under the template's folder that the template could have named for `stream`.
    /// - Returns: the paths of the files repaired, and a line for each that could not be.
    public static func repairAll(of template: PieceNameTemplate, stream: String) -> (repaired: [String], errors: [String]) {
        var repaired: [String] = []
        var errors: [String] = []
        let pattern = PieceNamePattern(template, stream: stream)
        for file in FolderWalk.files(under: template.root) where file.path.hasSuffix(PieceFile.partSuffix) {
            let path = String(file.path.dropLast(PieceFile.partSuffix.count))
            guard pattern.matches(template.relative(path)), !OpenPieces.contains(path) else { continue }
            do {
                repaired += try repair(path: path, modified: file.modified)
            } catch {
                errors.append("cannot repair \(file.path): \(error)")
            }
        }
        return (repaired, errors)
    }

    /// Makes `path` a whole file from `path.part`. An M4A piece carries what its repair needs (`M4AWriter`) and
    /// is completed in place. Any other is read again: the part is first renamed `path.damaged`, so that a
    /// repair cut short starts again from it, and its packets are written as one piece with the trims its header
    /// states at the start (the end's are lost with the end).
    /// - Returns: the path of the file made, if the part held any audio.
    static func repair(path: String, modified: Double) throws -> [String] {
        if Container(fileName: path) == .m4a { return try repairInPlace(path: path) }
        let damaged = path + ".damaged"
        if access(damaged, F_OK) != 0 {
            guard rename(path + PieceFile.partSuffix, damaged) == 0 else {
                throw WriteError.system(operation: "rename", path: path + PieceFile.partSuffix, errno: errno)
            }
        }
        let template = try PieceNameTemplate(literal: path)
        let recorder = StreamRecorder(settings: RecordingSettings(template: template, stream: "", datesPieces: false),
                                clockOrigin: modified)
        var pieces: [RecordedPiece] = []
        var failure: (any Error)?
        recorder.finished = { pieces.append($0) }
        recorder.failed = { failure = $0 }
        try parse(damaged, hint: template.container.flatMap { AudioFileType(hint: $0.rawValue) }) {
            recorder.handle($0)
        }
        recorder.finish()
        if let failure { throw failure }
        unlink(damaged)
        return pieces.map(\.path)
    }

    private static func repairInPlace(path: String) throws -> [String] {
        let part = path + PieceFile.partSuffix
        guard try M4AWriter.repair(path: part) > 0 else {
            unlink(part)
            return []
        }
        let final = PieceFile.freeName(for: path)
        guard rename(part, final) == 0 else { throw WriteError.system(operation: "rename", path: part, errno: errno) }
        return [final]
    }

    /// Feeds the file at `path` to a parser.
    private static func parse(_ path: String, hint: AudioFileType?,
                              handler: @escaping AudioFileStream.EventHandler) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError.system(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        let stream = try AudioFileStream(fileTypeHint: hint, handler: handler)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            try buffer.withUnsafeBytes { try stream.parse(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        try stream.finish()
    }
}
