#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only into memory, so that its chunks reach the parser straight from the page cache
/// instead of being copied out of it: what a parser that never looks at most bytes (PCM) is otherwise bound by.
/// The file must not shrink while it is read (a read past its new end would fault).
struct FileMapping {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file open as `descriptor`, or nil when it is not a non-empty regular file (a pipe, a terminal)
    /// or cannot be mapped: the caller then reads it.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        // Read front to back once: the kernel may read ahead and drop what was read.
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    func unmap() {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
}
