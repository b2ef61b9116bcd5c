import AudioFileStream

/// Edits a native FLAC file's metadata blocks (RFC 9639 §8): the VORBIS_COMMENT block (made after STREAMINFO when
/// there is none) and, for artwork, the PICTURE blocks; every other block, and the frames, are kept as they are.
/// An ID3v2 tag before `fLaC` (which some taggers write) is kept too.
enum FLACTagEdit {
    static func edit(_ bytes: UnsafeRawBufferPointer, current: NormalizedTags, edits: TagEdits) throws -> EditedFile {
        try edits.checkRawKeys(allowed: [.vorbis], in: "FLAC")
        let start = try ID3v2TagEdit.length(of: bytes) ?? 0
        guard start + 4 <= bytes.count, bytes[start..<start + 4].elementsEqual("fLaC".utf8) else {
            throw TagEditError.damaged("the FLAC stream does not start with fLaC")
        }
        var blocks: [(type: UInt8, body: [UInt8])] = []
        var offset = start + 4
        var isLast = false
        while !isLast {
            guard offset + 4 <= bytes.count else { throw TagEditError.damaged("the FLAC metadata blocks run past the end") }
            isLast = bytes[offset] & 0x80 != 0
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 4 + length <= bytes.count else {
                throw TagEditError.damaged("a FLAC metadata block runs past the end")
            }
            blocks.append((bytes[offset] & 0x7F, Array(bytes[offset + 4..<offset + 4 + length])))
            offset += 4 + length
        }
        let commentType = FLACMetadataBlock.BlockType.vorbisComment.rawValue
        let pictureType = FLACMetadataBlock.BlockType.picture.rawValue
        if !blocks.contains(where: { $0.type == commentType }) {
            blocks.insert((commentType, VorbisCommentWriter.block(comments: [], vendor: VorbisCommentWriter.vendor)),
                          at: min(1, blocks.count))
        }
        for index in blocks.indices where blocks[index].type == commentType {
            var comments = try VorbisCommentEdit(block: blocks[index].body[...])
            try comments.apply(edits, current: current, picturesInComments: false)
            blocks[index].body = comments.block
        }
        if let artwork = edits.artwork {
            blocks.removeAll { $0.type == pictureType }
            if case .replace(let picture) = artwork, let body = FLACPictureWriter.body(picture) {
                blocks.append((pictureType, body))
            }
        }
        var header = Array(bytes[start..<start + 4])
        for (index, block) in blocks.enumerated() {
            guard block.body.count <= FLACMetadataBlock.largestBody else {
                throw TagEditError.badValue("a FLAC metadata block of \(block.body.count) bytes is too large")
            }
            header.append(block.type | (index == blocks.count - 1 ? 0x80 : 0))
            header.append(bigEndian: UInt64(block.body.count), count: 3)
            header += block.body
        }
        return EditedFile(pieces: [.copy(0..<start), .bytes(header), .copy(offset..<bytes.count)])
    }
}
