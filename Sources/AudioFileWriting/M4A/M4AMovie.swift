/// The movie box (`moov`) of an M4A holding one audio track, built from its header and sample table.
///
/// Trims are stated twice, where decoders look: an edit list (`elst`, ISO/IEC 14496-12 §8.6.6) starting at
/// `leadingTrim` and lasting the frames kept, which ffmpeg and Apple's players honour; and iTunes' `iTunSMPB`
/// comment, which ffmpeg also reads for AAC (and then prefers to the edit for the start) and which iTunes-era
/// players read alone. Both always agree.
enum M4AMovie {
    static func box(_ header: M4ATrackHeader, _ table: M4ASampleTable, trailingTrim: Int64) -> [UInt8] {
        box(header, table, segments: [M4ASegment(start: 0, leadingTrim: header.leadingTrim, trailingTrim: trailingTrim,
                                                 end: table.totalFrames)])
    }

    /// The movie of `segments` played one after another: one edit each. iTunSMPB, which can state only one
    /// priming and one remainder, is written for one segment alone.
    static func box(_ header: M4ATrackHeader, _ table: M4ASampleTable, segments: [M4ASegment]) -> [UInt8] {
        let total = table.totalFrames
        let edits = segments.map(\.edit)
        let kept = edits.reduce(0) { $0 + $1.duration }
        var builder = MP4BoxBuilder()
        builder.box("moov") {
            $0.movieHeader(timescale: header.timescale, duration: kept)
            $0.track(header, table, edits: edits, duration: kept)
            var smpb: [UInt8] = []
            if let edit = edits.first, edits.count == 1 {
                let gapless = gaplessInfo(priming: edit.mediaTime, remainder: total - edit.mediaTime - edit.duration,
                                          kept: edit.duration)
                smpb = ITunesTagWriter.freeFormItem(mean: "com.apple.iTunes", name: "iTunSMPB", text: gapless)
            }
            // iTunSMPB comes before the artwork: ffmpeg takes a free-form item for the last stream it made,
            // which after `covr` is the picture's.
            $0.append(ITunesTagWriter.userData(items: smpb + header.tagItems))
        }
        return builder.bytes
    }

    /// iTunSMPB as iTunes writes it: a space before each field, a reserved field, priming, remainder (8 hex
    /// digits each), the frames kept (16), and eight reserved fields.
    static func gaplessInfo(priming: Int64, remainder: Int64, kept: Int64) -> String {
        func hex(_ value: Int64, _ digits: Int) -> String {
            let text = String(UInt64(value), radix: 16, uppercase: true)
            return String(repeating: "0", count: max(digits - text.count, 0)) + text
        }
        return " 00000000 \(hex(priming, 8)) \(hex(remainder, 8)) \(hex(kept, 16))"
            + String(repeating: " 00000000", count: 8)
    }
}

extension M4AMovie {
    /// The movie of a fragmented MP4 (ISO/IEC 14496-12 §8.8, as CMAF uses it): no samples of its own, an edit
    /// that starts `leadingTrim` frames in and lasts as long as the fragments (a duration of 0), and `mvex`
    /// saying that fragments of track 1 follow. ffmpeg takes no edit of fragments: the priming is said in
    /// iTunSMPB too, which it reads (with the remainder and the length unknown, 0).
    static func fragmentedBox(_ header: M4ATrackHeader) -> [UInt8] {
        var builder = MP4BoxBuilder()
        builder.box("moov") {
            $0.movieHeader(timescale: header.timescale, duration: 0)
            let edits = header.leadingTrim > 0 ? [(mediaTime: header.leadingTrim, duration: Int64(0))] : []
            $0.track(header, M4ASampleTable(), edits: edits, duration: 0)
            $0.box("mvex") {
                $0.fullBox("trex") {
                    $0.uint32(1)  // track
                    $0.uint32(1)  // sample description
                    $0.zeros(12)  // default duration, size and flags: each fragment states its own
                }
            }
            if header.leadingTrim > 0 {
                let gapless = gaplessInfo(priming: header.leadingTrim, remainder: 0, kept: 0)
                $0.append(ITunesTagWriter.userData(
                    items: ITunesTagWriter.freeFormItem(mean: "com.apple.iTunes", name: "iTunSMPB", text: gapless)))
            }
        }
        return builder.bytes
    }
}

extension MP4BoxBuilder {
    /// `trak`: track 1 of `duration` in the movie's timescale, played through `edits` (none: as it is), and
    /// its media: the clock, the handler, and `table`'s samples.
    fileprivate mutating func track(_ header: M4ATrackHeader, _ table: M4ASampleTable,
                                    edits: [(mediaTime: Int64, duration: Int64)], duration: Int64) {
        box("trak") {
            $0.trackHeader(duration: duration)
            if !edits.isEmpty {
                $0.box("edts") {
                    $0.fullBox("elst", version: 1) {
                        $0.uint32(UInt32(edits.count))
                        for edit in edits {
                            $0.uint64(UInt64(edit.duration))
                            $0.uint64(UInt64(edit.mediaTime))
                            $0.uint32(0x1_0000)  // media rate 1.0
                        }
                    }
                }
            }
            $0.box("mdia") {
                $0.fullBox("mdhd", version: 1) {
                    $0.zeros(16)  // creation and modification times: unknown
                    $0.uint32(header.timescale)
                    $0.uint64(UInt64(table.totalFrames))
                    $0.uint16(0x55C4)  // language "und"
                    $0.uint16(0)
                }
                $0.fullBox("hdlr") {
                    $0.uint32(0)
                    $0.fourCC("soun")
                    $0.zeros(12)
                    $0.append(Array("SoundHandler".utf8) + [0])
                }
                $0.box("minf") {
                    $0.fullBox("smhd") { $0.zeros(4) }
                    $0.box("dinf") {
                        $0.fullBox("dref") {
                            $0.uint32(1)
                            $0.fullBox("url ", flags: 1) { _ in }  // the media is in this file
                        }
                    }
                    $0.sampleTable(header.sampleEntry, table)
                }
            }
        }
    }

    fileprivate mutating func movieHeader(timescale: UInt32, duration: Int64) {
        fullBox("mvhd", version: 1) {
            $0.zeros(16)  // creation and modification times
            $0.uint32(timescale)
            $0.uint64(UInt64(duration))
            $0.uint32(0x1_0000)  // rate 1.0
            $0.uint16(0x0100)  // volume 1.0
            $0.zeros(10)
            $0.unityMatrix()
            $0.zeros(24)
            $0.uint32(2)  // next track ID
        }
    }

    /// Track 1, enabled and in the movie and its preview; its duration is in the movie's timescale.
    fileprivate mutating func trackHeader(duration: Int64) {
        fullBox("tkhd", version: 1, flags: 0x7) {
            $0.zeros(16)
            $0.uint32(1)
            $0.zeros(4)
            $0.uint64(UInt64(duration))
            $0.zeros(8)
            $0.uint16(0)  // layer
            $0.uint16(1)  // alternate group: the audio tracks
            $0.uint16(0x0100)  // volume 1.0
            $0.zeros(2)
            $0.unityMatrix()
            $0.zeros(8)  // width, height
        }
    }

    /// `stbl`: the description, frames per packet (`stts`), packets per chunk (`stsc`), sizes (`stsz`) and chunk
    /// offsets, in 32 bits (`stco`) unless the last chunk lies past 4 GiB (`co64`).
    fileprivate mutating func sampleTable(_ sampleEntry: [UInt8], _ table: M4ASampleTable) {
        box("stbl") {
            $0.fullBox("stsd") {
                $0.uint32(1)
                $0.append(sampleEntry)
            }
            $0.fullBox("stts") {
                $0.uint32(UInt32(table.runs.count))
                for run in table.runs {
                    $0.uint32(run.packets)
                    $0.uint32(run.frames)
                }
            }
            $0.fullBox("stsc") {
                var runs: [(firstChunk: UInt32, packets: UInt32)] = []
                for (index, chunk) in table.chunks.enumerated() where runs.last?.packets != chunk.packets {
                    runs.append((UInt32(index + 1), chunk.packets))
                }
                $0.uint32(UInt32(runs.count))
                for run in runs {
                    $0.uint32(run.firstChunk)
                    $0.uint32(run.packets)
                    $0.uint32(1)  // sample description index
                }
            }
            $0.fullBox("stsz") {
                $0.uint32(0)  // sizes vary
                $0.uint32(UInt32(table.sizes.count))
                for size in table.sizes { $0.uint32(size) }
            }
            let isLong = (table.chunks.last?.offset ?? 0) > Int64(UInt32.max)
            $0.fullBox(isLong ? "co64" : "stco") {
                $0.uint32(UInt32(table.chunks.count))
                for chunk in table.chunks {
                    if isLong { $0.uint64(UInt64(chunk.offset)) } else { $0.uint32(UInt32(chunk.offset)) }
                }
            }
        }
    }
}

/// Packets of an M4A that one edit plays: media frames `start..<end`, but the trims at either end.
struct M4ASegment {
    var start: Int64
    var leadingTrim: Int64
    var trailingTrim: Int64
    var end: Int64

    /// The edit: where its media starts, and how long it plays; trims larger than the segment keep nothing.
    var edit: (mediaTime: Int64, duration: Int64) {
        let priming = min(max(leadingTrim, 0), end - start)
        return (start + priming, max(end - start - priming - max(trailingTrim, 0), 0))
    }
}
