import AudioFileStream
import AudioFileWriting
import AudioLoudness
import Foundation

/// The loudness of the tracks measured together, as one album.
struct AlbumLoudness {
    let integrated: Double
    let range: Double
    let peak: Double

    init(_ tracks: [TrackLoudness]) {
        integrated = LoudnessMeter.integrated(of: tracks.map(\.meter))
        range = LoudnessMeter.range(of: tracks.map(\.meter))
        peak = tracks.map(\.peak).max() ?? 0
    }
}

/// ReplayGain 2.0 in each format's own fields, as loudgain writes them: ID3v2 `TXXX` frames (MPEG audio, and
/// the ID3 tags of ADTS, WAVE and AIFF), Vorbis comments
/// (FLAC, Vorbis), Opus's R128 gains in Q7.8 (RFC 7845 §5.2.1, the header's output gain left as it is), and
/// iTunes freeform atoms in MP4.
enum ReplayGainTags {
    /// The tags of `track`, and of `album` when measured as one.
    /// - Throws: `CommandFailure` for a file whose format has no ReplayGain fields, or a silent track.
    static func edits(for track: TrackLoudness, album: AlbumLoudness?) throws -> TagEdits {
        guard track.integrated.isFinite, album?.integrated.isFinite ?? true else {
            throw CommandFailure("\(track.file): silent, no gain to tag")
        }
        let scopes = [("track", track.integrated, track.peak)] + (album.map { [("album", $0.integrated, $0.peak)] } ?? [])
        var edits = TagEdits()
        if track.formatID == AudioFormatID.opus {
            for (scope, loudness, _) in scopes {
                edits.set.append((.raw(.vorbis, "R128_\(scope.uppercased())_GAIN"), "\(ReplayGain.r128Gain(loudness: loudness))"))
            }
            return edits
        }
        let key = try key(for: track)
        for (scope, loudness, peak) in scopes {
            edits.set.append((key("replaygain_\(scope)_gain"), String(format: "%.2f dB", ReplayGain.gain(loudness: loudness))))
            edits.set.append((key("replaygain_\(scope)_peak"), String(format: "%.6f", peak)))
        }
        return edits
    }

    /// The field of a ReplayGain name in `track`'s tag format: upper case but in MP4, where iTunes writes lower.
    private static func key(for track: TrackLoudness) throws -> (String) -> TagKey {
        switch track.fileType {
        case .mp1?, .mp2?, .mp3?, .adts?, .wave?, .aiff?, .aifc?: { .raw(.id3, "TXXX:\($0.uppercased())") }
        case .flac?, .ogg?: { .raw(.vorbis, $0.uppercased()) }
        case .mpeg4?, .m4a?, .m4b?: { .raw(.itunes, "----:com.apple.iTunes:\($0)") }
        default: throw CommandFailure("\(track.file): \(track.fileType?.description ?? "this") files get no ReplayGain tags")
        }
    }
}
