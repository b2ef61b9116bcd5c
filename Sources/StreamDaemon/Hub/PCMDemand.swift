import NIOConcurrencyHelpers

/// How many subscribers want PCM in each encoding, over all of a stream's hubs: the pipeline decodes only while
/// this is not empty, and only to the encodings listed.
final class PCMDemand: Sendable {
    private let counts = NIOLockedValueBox<[WirePCMEncoding: Int]>([:])

    var encodings: [WirePCMEncoding] { counts.withLockedValue { Array($0.keys) } }
    var isEmpty: Bool { counts.withLockedValue { $0.isEmpty } }

    func add(_ encoding: WirePCMEncoding) {
        counts.withLockedValue { $0[encoding, default: 0] += 1 }
    }

    func remove(_ encoding: WirePCMEncoding) {
        counts.withLockedValue { counts in
            counts[encoding] = counts[encoding, default: 0] > 1 ? counts[encoding]! - 1 : nil
        }
    }
}
