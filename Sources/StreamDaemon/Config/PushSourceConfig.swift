/// A live source pushed to the stream's mount by an Icecast source client (BUTT, Mixxx, ffmpeg, Liquidsoap), as
/// `source: push` in `config.yaml`.
public struct PushSourceConfig: Equatable, Sendable {
    /// The password a source client sends as `source:PASSWORD`: the stream's own `sourcePassword`, else, once the
    /// configuration is loaded, the HTTP server's.
    public var password: String?
    /// Seconds without a byte from the source client before it is dropped and the mount is free again.
    public var stallTimeout: Double
    /// The codec every source client must send (`codec:`); nil: the first one heard since the stream started.
    var codec: MountCodec?

    public init(password: String? = nil, stallTimeout: Double = HTTPSourceConfig.defaultStallTimeout) {
        self.password = password
        self.stallTimeout = stallTimeout
    }
}

extension SourceConfig {
    /// The password of a push source's clients, once the configuration is loaded; nil for any other source.
    var pushPassword: String? {
        guard case .push(let push) = self else { return nil }
        return push.password
    }
}
