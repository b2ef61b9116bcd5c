import AudioStreamProtocol
import NIOConcurrencyHelpers

/// How many subscribers want PCM in each format, over all of a stream's hubs: the pipeline decodes only while this
/// is not empty, and converts only to the formats listed.
final class PCMDemand: Sendable {
    private let counts = NIOLockedValueBox<[PCMRequest: Int]>([:])

    var requests: [PCMRequest] { counts.withLockedValue { Array($0.keys) } }
    var isEmpty: Bool { counts.withLockedValue { $0.isEmpty } }

    func add(_ request: PCMRequest) {
        counts.withLockedValue { $0[request, default: 0] += 1 }
    }

    func remove(_ request: PCMRequest) {
        counts.withLockedValue { counts in
            counts[request] = counts[request, default: 0] > 1 ? counts[request]! - 1 : nil
        }
    }
}
