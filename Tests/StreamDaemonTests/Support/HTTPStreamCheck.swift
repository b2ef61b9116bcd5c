import Foundation

/// What tests compare HTTP listeners' bytes with, all from independent tools or the ICY convention itself.
enum HTTPStreamCheck {
    /// The audio frames of `file` as ffprobe cuts them (`-show_entries packet=pos,size`), each as its bytes.
    static func ffprobePackets(_ file: URL, folder: URL) throws -> [Data] {
        let result = try ToolProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size", "-of", "csv=p=0", file.path,
        ], folder: folder, name: "ffprobe-packets")
        let bytes = try Data(contentsOf: file)
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 2, let size = Int(fields[0]), let position = Int(fields[1]) else { return nil }
            return bytes.subdata(in: position..<position + size)
        }
    }

    /// `artist - title` from ffprobe's reading of `file`'s tags, as stations write StreamTitle.
    static func ffprobeTitle(_ file: URL, folder: URL) throws -> String {
        let result = try ToolProcess.run("ffprobe", [
            "-v", "error", "-show_entries", "format_tags=artist,title", "-of", "json", file.path,
        ], folder: folder, name: "ffprobe-title")
        let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        let tags = (object?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        return "\(tags["artist"] ?? "?") - \(tags["title"] ?? "?")"
    }

    /// Splits an ICY body (`Icy-MetaData: 1`) into its audio and the text of its non-empty metadata blocks: after
    /// every `metaint` bytes of audio, a length byte N and N × 16 bytes of text padded with NULs; the text read as
    /// UTF-8, or with `latin1` as ISO-8859-1.
    static func splitICY(_ body: Data, metaint: Int, latin1: Bool = false) -> (audio: Data, blocks: [String]) {
        var audio = Data()
        var blocks: [String] = []
        var index = body.startIndex
        while index < body.endIndex {
            let audioEnd = min(index + metaint, body.endIndex)
            audio.append(body[index..<audioEnd])
            index = audioEnd
            guard index < body.endIndex else { break }
            let length = Int(body[index]) * 16
            let text = body[(index + 1)..<min(index + 1 + length, body.endIndex)].filter { $0 != 0 }
            index += 1 + length
            guard !text.isEmpty else { continue }
            blocks.append(latin1 ? String(String.UnicodeScalarView(text.map(Unicode.Scalar.init)))
                : String(decoding: text, as: UTF8.self))
        }
        return (audio, blocks)
    }

    /// The StreamTitle of a block's text (`StreamTitle='…';…`).
    static func streamTitle(_ block: String) -> String? {
        guard let start = block.range(of: "StreamTitle='"), let end = block.range(of: "';", range: start.upperBound..<block.endIndex)
        else { return nil }
        return String(block[start.upperBound..<end.lowerBound])
    }

    /// Whether `body` is `packets` laid end to end from one of them on: a listener's audio starts on a packet.
    static func isPacketSuffix(_ body: Data, of packets: [Data]) -> Bool {
        guard !body.isEmpty else { return false }
        let whole = packets.reduce(Data(), +)
        var start = 0
        for packet in packets {
            if whole.count - start == body.count { return whole.suffix(body.count) == body }
            start += packet.count
        }
        return false
    }

    /// The header fields of an HTTP response head as curl's `-D -` prints it, names lowercased; the status line
    /// under the name `status`.
    static func headers(_ head: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for (index, line) in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").enumerated() {
            if index == 0 {
                fields["status"] = line
            } else if let colon = line.firstIndex(of: ":") {
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return fields
    }
}
