import AudioFileStream

/// Where a stream's audio falls on the wall clock, for its recording: set at the first packet after each
/// (re)start of a source, and again when the audio comes later than its own duration allows (a stall that
/// lost no connection), so that pieces stay named, dated and cut by the wall clock.
struct RecordingClock {
    /// The wall-clock time of the audio's anchor, and the seconds of audio since.
    private var anchor: (time: Double, seconds: Double)?

    /// How late the audio may come before the clock is set again: more than a network's jitter, less than a
    /// listener would call dead air.
    static let lateness = 2.0

    /// The wall-clock time of the next frame, to set the recording's clock to before `event`, when it is to be
    /// set; `now` is the time the event came.
    mutating func time(before event: AudioFileStreamEvent, now: Double) -> Double? {
        switch event {
        case .discontinuity(let discontinuity) where [.reconnect, .input].contains(discontinuity.reason):
            // A source connected again or took the air: the next packet says when.
            anchor = nil
            return nil
        case .packets(let batch):
            let seconds = batch.format.sampleRate > 0 ? Double(batch.frameCount) / batch.format.sampleRate : 0
            guard let anchor, now - (anchor.time + anchor.seconds) <= Self.lateness else {
                self.anchor = (now, seconds)
                return now
            }
            self.anchor = (anchor.time, anchor.seconds + seconds)
            return nil
        default:
            return nil
        }
    }
}
