/// An ICY body made in a test: `audio` with a metadata block after every `metaint` bytes (ICY's framing: a length
/// byte counting 16-byte units, then the text padded with NULs), and no block after a short last run.
enum ICYBody {
    /// - Parameter text: the text of block `n` (counted from 1), or nil for an empty block.
    static func interleave(_ audio: [UInt8], metaint: Int, text: (Int) -> String?) -> [UInt8] {
        var body: [UInt8] = []
        var block = 0
        for start in stride(from: 0, to: audio.count, by: metaint) {
            let end = min(start + metaint, audio.count)
            body += audio[start..<end]
            guard end - start == metaint, end < audio.count else { break }
            block += 1
            let bytes = Array((text(block) ?? "").utf8)
            let units = (bytes.count + 15) / 16
            body += [UInt8(units)] + bytes + [UInt8](repeating: 0, count: units * 16 - bytes.count)
        }
        return body
    }
}
