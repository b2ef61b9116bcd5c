import Foundation

/// The mounts an Icecast master lists at `/admin/streamlist.txt`: one a line, each a path (`/jazz.mp3`) or, from
/// some Icecast versions, a whole URL whose path is the mount.
enum MasterMountList {
    /// Mounts read from one list at most: a master that lists more is refused the rest, and says so in the log.
    static let maximumMounts = 1000

    /// The mounts of `body`, in its order, each once; lines that name no mount are left out.
    static func mounts(in body: String) -> [String] {
        var seen: Set<String> = []
        var mounts: [String] = []
        for line in body.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            let path = text.hasPrefix("/") ? text : URLComponents(string: text).flatMap(\.percentEncodedPath.nonEmpty)
            guard let path, MountPath.isValid(path), mounts.count < maximumMounts, seen.insert(path).inserted
            else { continue }
            mounts.append(path)
        }
        return mounts
    }
}

/// What may be a mount: a path of characters a URL path carries as they are.
enum MountPath {
    static func isValid(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("/")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~!$&'()*+,;=:@/".contains($0)) }
    }
}

extension String {
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
