/// How a writer writes, fixed when it starts (`Container.makeWriter`): what only some containers take.
public struct WriterOptions {
    /// FLAC: every frame numbers its first sample (a variable block size), for files whose frames are not all of
    /// one size but the last (a cut's first frame, `FLACVerbatimFrame`).
    public var numbersFLACFramesBySample: Bool
    /// FLAC: makes the MD5 of the decoded samples that STREAMINFO states; without one it states zeros, FLAC's
    /// "not computed".
    public var flacSamplesDigest: (any FLACSamplesDigest)?

    public init(numbersFLACFramesBySample: Bool = false, flacSamplesDigest: (any FLACSamplesDigest)? = nil) {
        self.numbersFLACFramesBySample = numbersFLACFramesBySample
        self.flacSamplesDigest = flacSamplesDigest
    }
}

/// The MD5 of a FLAC file's decoded samples, made from its frames as they are written. Decoding is not the
/// writer's: the caller gives the digest (`WriterOptions.flacSamplesDigest`).
public protocol FLACSamplesDigest: AnyObject {
    /// Takes the frame `packet`, of `frames` samples, as it is written.
    func add(_ packet: UnsafeRawBufferPointer, frames: Int64)
    /// The digest of every frame taken.
    func finish() -> AudioMD5
}
