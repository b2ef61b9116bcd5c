import AudioFileStream
import AudioRecording
import AudioStreamProtocol

/// What a stream's pipeline hands its recording, if it has one: every parser event and what the source says
/// beside its audio, gathered over a chunk and handed over together.
struct RecordingTap {
    private var worker: RecordingWorker?
    private var inputs: [RecordingInput] = []
    private var clock = RecordingClock()

    init(_ worker: RecordingWorker?) {
        self.worker = worker
    }

    /// Records with `worker` from now on, or stops; a worker that starts mid-stream is first told the station
    /// and the format so far.
    mutating func attach(_ worker: RecordingWorker?, parser: AudioFileStream?, station: HTTPStreamInfo?) {
        self.worker = worker
        clock = RecordingClock()
        guard let worker else { return }
        var known: [RecordingInput] = station.map { [.station($0.name)] } ?? []
        for id in [AudioFileStreamPropertyID.dataFormat, .magicCookieData, .channelLayout] {
            if let value = try? parser?.property(id) { known.append(.event(OwnedEvent(.property(id, value)))) }
        }
        worker.take(known)
    }

    /// Adds the event's copy, after the wall-clock time of the next frame when it is to be set again.
    mutating func collect(_ event: AudioFileStreamEvent) {
        guard worker != nil else { return }
        if let time = clock.time(before: event, now: WallClock.now()) { inputs.append(.clock(time)) }
        if case .warning = event { return }
        inputs.append(.event(OwnedEvent(event)))
    }

    /// What the source said beside its audio: an ICY title from a stream offset on, or the station.
    mutating func note(_ metadata: SourceMetadata, at offset: Int64) {
        guard worker != nil else { return }
        switch metadata {
        case .icy(let icy): if let tags = icy.tags { inputs.append(.tags(tags, offset: offset)) }
        case .station(let station): inputs.append(.station(station.name))
        }
    }

    /// Another source takes the air: told before anything of it.
    mutating func noteNewSource() {
        guard worker != nil else { return }
        inputs.append(.newSource)
    }

    /// Hands what the chunk gathered to the recording.
    mutating func flush() {
        guard !inputs.isEmpty else { return }
        worker?.take(inputs)
        inputs.removeAll(keepingCapacity: true)
    }
}
