import AudioLoudness
import Foundation

/// What Icecast's statistics (`/status-json.xsl`) and the status page tell of one mount.
struct MountFacts: Sendable {
    let mount: String
    /// What a listener's response head says, once the stream can be served.
    let info: MountInfo?
    let listeners: Int
    /// HLS sessions listening (`HLSSessions`); nil for a stream without HLS.
    let hlsListeners: Int?
    /// The most listeners at once since the stream started.
    let listenerPeak: Int
    /// What plays, as ICY listeners are told.
    let title: String?
    /// The source's sample rate and channels, once known.
    let format: (sampleRate: Int, channels: Int)?
    /// Bits per second of audio measured so far; 0 before any.
    let bitRate: Int
    /// What has the air, since when.
    let air: MountAir
    /// The source client on the air, if one is.
    let sourceClient: ClientIdentity?
    /// Bytes read from the stream's sources, and sent to its HTTP listeners connected now.
    let bytesRead: Int
    let bytesSent: Int
    /// The loudness on the air, for a stream whose loudness is monitored, once measured.
    let loudness: LevelReading?
    /// Whether the main source is silent, for a stream that watches silence.
    let silent: Bool?
}

extension StreamCore {
    /// The stream's facts, given what its hubs know: its listeners and its mount info.
    func mountFacts(listeners: Int, listenerPeak: Int, sentBytes: Int, info: MountInfo?) -> MountFacts {
        let statistics = pipeline.statistics
        let format = statistics.format.map { (Int($0.sampleRate), Int($0.channelsPerFrame)) }
        return MountFacts(mount: config.mount, info: info, listeners: listeners,
                          hlsListeners: pipeline.hls?.listeners(), listenerPeak: listenerPeak,
                          title: pipeline.nowPlaying?.title, format: format, bitRate: statistics.measuredBitRate,
                          air: air, sourceClient: sourceClient, bytesRead: statistics.bytesIn,
                          bytesSent: sentBytes, loudness: pipeline.levels?.loudness, silent: isMainSilent)
    }
}
