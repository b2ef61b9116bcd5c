import FixtureSupport
import Foundation

/// An ICY body made by the fixture script, with the audio it interleaves and the blocks it holds.
struct ICYFixture: CustomStringConvertible {
    let name: String
    let body: [UInt8]
    let metaint: Int
    /// The audio file interleaved into the body.
    let source: [UInt8]
    /// The source's packets as ffprobe lists them, when the source is a fixture with a recorded list.
    let expectedPackets: [PacketRecord]?
    /// Every non-empty block: `audioOffset`, `raw`, `streamTitle`, `streamUrl` (null when absent).
    let metadata: [[String: Any]]

    var description: String { name }

    init(_ name: String) {
        self.name = name
        let folder = Fixtures.directory.appendingPathComponent("icy")
        body = [UInt8](try! Data(contentsOf: folder.appendingPathComponent("\(name).body")))
        let facts = try! JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("\(name).json"))) as! [String: Any]
        metaint = facts["metaint"] as! Int
        let sourcePath = facts["source"] as! String
        let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        source = [UInt8](try! Data(contentsOf: root.appendingPathComponent(sourcePath)))
        let sourceName = URL(fileURLWithPath: sourcePath).lastPathComponent
        expectedPackets = Fixtures.generated.first { $0.name == sourceName }?.expectedPackets
        metadata = facts["metadata"] as! [[String: Any]]
    }
}
