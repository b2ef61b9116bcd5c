import Foundation

/// The MD5 digest of `bytes` in hex, computed by coreutils' `md5sum`, to compare with digests the fixture
/// script recorded from mpg123's output.
public func md5(_ bytes: [UInt8]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Write from another thread so a full pipe cannot block this one while md5sum waits to be read.
    let writer = Thread { [data = Data(bytes)] in
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return String(digest.prefix(32))
}
