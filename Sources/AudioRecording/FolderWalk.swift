#if canImport(Glibc)
import Glibc
#endif

/// The regular files under a folder, at any depth, without following symbolic links.
enum FolderWalk {
    struct File {
        let path: String
        let size: Int64
        /// Last modified, in seconds since 1970.
        let modified: Double
    }

    /// The files under `root`; an unreadable folder is passed over.
    static func files(under root: String) -> [File] {
        var files: [File] = []
        var folders = [root]
        while let folder = folders.popLast() {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard name != ".", name != ".." else { continue }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: folders.append(path)
                case S_IFREG:
                    files.append(File(path: path, size: Int64(status.st_size),
                                      modified: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
                default: break
                }
            }
        }
        return files
    }
}
