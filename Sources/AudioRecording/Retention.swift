#if canImport(Glibc)
import Glibc
#endif

/// How long a recording keeps its pieces: the oldest go once they pass an age or the pieces pass a total size.
/// Only files the recording's template can name for its stream are ever deleted (`PieceNamePattern`), and
/// never one being written (`.part`).
public struct Retention: Equatable, Sendable {
    public var days: Double?
    public var bytes: Int64?

    public init(days: Double? = nil, bytes: Int64? = nil) {
        self.days = days
        self.bytes = bytes
    }

    /// Deletes the pieces `template` names for `stream` that are too old, then the oldest while the rest are too big.
    /// - Returns: the paths deleted, and the reasons files that should have gone could not.
    @discardableResult
    public func apply(to template: PieceNameTemplate, stream: String, now: Double) -> (deleted: [String], errors: [String]) {
        guard days != nil || bytes != nil else { return ([], []) }
        let pattern = PieceNamePattern(template, stream: stream)
        var pieces = FolderWalk.files(under: template.root).filter {
            !$0.path.hasSuffix(PieceFile.partSuffix) && pattern.matches(template.relative($0.path))
        }
        pieces.sort { $0.modified < $1.modified }
        var total = pieces.reduce(0) { $0 + $1.size }
        var deleted: [String] = []
        var errors: [String] = []
        for piece in pieces {
            let tooOld = days.map { now - piece.modified > $0 * 86_400 } ?? false
            let tooBig = bytes.map { total > $0 } ?? false
            guard tooOld || tooBig else { break }
            if unlink(piece.path) == 0 {
                deleted.append(piece.path)
                total -= piece.size
            } else {
                errors.append("cannot delete \(piece.path): \(String(cString: strerror(errno)))")
            }
        }
        return (deleted, errors)
    }
}
