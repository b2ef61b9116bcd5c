import CEBUR128

/// Loudness of PCM as EBU R128 and ITU-R BS.1770-4 define it, measured by libebur128: momentary (400 ms) and
/// short-term (3 s) loudness, integrated loudness and loudness range since the meter began, and each channel's
/// sample and true peak.
///
/// Takes interleaved float samples (full scale ±1) in order with `add`; the figures cover every sample added so
/// far. Channels follow the order of WAVE and FLAC, as libebur128 takes them (left, right, centre, LFE, surround
/// left and right): the LFE is left out and the surround channels weigh +1.5 dB, as BS.1770 says. Not for sharing
/// between threads.
///
/// A meter that is `bounded` keeps a histogram of 0.1 LU bins for its integrated loudness and range, in a fixed
/// amount of memory however long it runs (a live source); otherwise it keeps every block, exact, and grows by some
/// bytes a second (a file).
public final class LoudnessMeter {
    public private(set) var channels: Int
    public private(set) var sampleRate: Int
    private let state: UnsafeMutablePointer<ebur128_state>

    /// A meter of `channels` channels at `sampleRate` Hz, in fixed memory when `bounded`, that measures true
    /// peaks when `truePeak` (which costs most of its time) and sample peaks in any case.
    /// - Throws: `LoudnessError.unsupported` for a layout or rate libebur128 does not measure.
    public init(channels: Int, sampleRate: Int, bounded: Bool = false, truePeak: Bool = true) throws(LoudnessError) {
        let peaks = truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_SAMPLE_PEAK.rawValue
        let modes = Self.modes | Int32(peaks) | (bounded ? Int32(EBUR128_MODE_HISTOGRAM.rawValue) : 0)
        guard channels > 0, sampleRate > 0, let state = ebur128_init(UInt32(channels), UInt(sampleRate), modes) else {
            throw .unsupported("\(channels) channels at \(sampleRate) Hz")
        }
        self.channels = channels
        self.sampleRate = sampleRate
        self.state = state
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&state)
    }

    private static let modes = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue)

    /// Takes samples of `channels` at `sampleRate` from now on (a chained stream's next link), measured on with
    /// what came before: the filters start again, the gating blocks so far stay.
    /// - Throws: `LoudnessError.unsupported` for a layout or rate libebur128 does not measure.
    public func change(channels: Int, sampleRate: Int) throws(LoudnessError) {
        guard channels != self.channels || sampleRate != self.sampleRate else { return }
        guard channels > 0, sampleRate > 0,
              ebur128_change_parameters(state, UInt32(channels), UInt(sampleRate)) == EBUR128_SUCCESS.rawValue
        else { throw .unsupported("\(channels) channels at \(sampleRate) Hz") }
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Adds `samples`, whole frames of interleaved channels.
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        ebur128_add_frames_float(state, base, samples.count / channels)
    }

    /// Loudness of the last 400 ms, in LUFS; -infinity in silence.
    public var momentary: Double { figure(ebur128_loudness_momentary) }

    /// Loudness of the last 3 s, in LUFS; -infinity in silence.
    public var shortTerm: Double { figure(ebur128_loudness_shortterm) }

    /// Gated loudness of everything added, in LUFS; -infinity before a gating block is loud enough.
    public var integrated: Double { figure(ebur128_loudness_global) }

    /// Loudness range (EBU Tech 3342) of everything added, in LU.
    public var range: Double { figure(ebur128_loudness_range) }

    /// The largest sample of `channel`, as a linear factor of full scale.
    public func samplePeak(channel: Int) -> Double {
        var peak = 0.0
        ebur128_sample_peak(state, UInt32(channel), &peak)
        return peak
    }

    /// The largest value of `channel` between its samples (4× oversampled, BS.1770-4 Annex 2), as a linear
    /// factor of full scale; 0 for a meter made without true peaks.
    public func truePeak(channel: Int) -> Double {
        var peak = 0.0
        ebur128_true_peak(state, UInt32(channel), &peak)
        return peak
    }

    /// Gated loudness of everything `meters` measured, as one programme (an album), in LUFS.
    public static func integrated(of meters: [LoudnessMeter]) -> Double {
        figure(of: meters, ebur128_loudness_global_multiple)
    }

    /// Loudness range of everything `meters` measured, as one programme, in LU.
    public static func range(of meters: [LoudnessMeter]) -> Double {
        figure(of: meters, ebur128_loudness_range_multiple)
    }

    private static func figure(
        of meters: [LoudnessMeter],
        _ read: (UnsafeMutablePointer<UnsafeMutablePointer<ebur128_state>?>?, Int, UnsafeMutablePointer<Double>?) -> Int32
    ) -> Double {
        var states: [UnsafeMutablePointer<ebur128_state>?] = meters.map(\.state)
        var value = -Double.infinity
        return read(&states, states.count, &value) == EBUR128_SUCCESS.rawValue ? value : -.infinity
    }

    private func figure(_ read: (UnsafeMutablePointer<ebur128_state>?, UnsafeMutablePointer<Double>?) -> Int32)
        -> Double {
        var value = -Double.infinity
        return read(state, &value) == EBUR128_SUCCESS.rawValue ? value : -.infinity
    }
}

/// Why loudness cannot be measured.
public enum LoudnessError: Error, Equatable, CustomStringConvertible {
    case unsupported(String)

    public var description: String {
        switch self {
        case .unsupported(let what): "loudness cannot be measured for \(what)"
        }
    }
}
