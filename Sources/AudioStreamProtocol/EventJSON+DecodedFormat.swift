extension EventJSON {
    /// The format a stream decodes to, as ffprobe's `sample_rate` and `channels` give it once it has decoded: for
    /// HE-AAC not the DataFormat's core layer (SBR doubles its rate, PS makes mono stereo). `probe`, `status` and
    /// the `decodedFormat` property say it in this shape.
    public static func decodedFormat(sampleRate: Int, channels: Int) -> JSON {
        .object([("sampleRate", .number(sampleRate)), ("channels", .number(channels))])
    }

    /// The `property` event of the decoded format, which subscribers of properties get once it is known (the
    /// daemon decodes while a subscriber wants PCM) and again when it changes.
    public static func decodedFormatProperty(sampleRate: Int, channels: Int) -> JSON {
        .object([
            ("event", .string("property")), ("id", .string("decodedFormat")),
            ("value", decodedFormat(sampleRate: sampleRate, channels: channels)),
        ])
    }
}
