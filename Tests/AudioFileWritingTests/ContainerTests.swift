import AudioFileStream
@testable import AudioFileWriting
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct ContainerTests {
    @Test func extensionsNameTheirContainers() {
        #expect(Container(fileName: "/a.b/piece-001.MP3") == .mp3)
        #expect(Container(fileName: "x.mp4") == .m4a)
        #expect(Container(fileName: "x.adts") == .aac)
        #expect(Container(fileName: "folder.d/name") == nil)
        #expect(Container(fileName: "x.wma") == nil)
    }

    @Test func aContainerHoldsOnlyItsCodecs() {
        let mp3 = AudioStreamBasicDescription(sampleRate: 44_100, formatID: AudioFormatID.mpegLayer3,
                                              framesPerPacket: 1152, channelsPerFrame: 2)
        #expect(Container.mp3.canHold(mp3))
        #expect(!Container.flac.canHold(mp3))
        #expect(Container.natural(for: mp3) == .mp3)
    }
}

/// A full disk is an error that names the file and the reason, never bytes lost in silence.
@Suite struct FileTargetTests {
    @Test func aFullDiskIsAnError() throws {
        // /dev/full takes the bytes of every write and answers that there is no room (ENOSPC).
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        var target = FileTarget(descriptor: descriptor, path: "/dev/full")
        defer { target.close() }
        let bytes = [UInt8](repeating: 0x55, count: 40_000)
        let error = try #require(throws: WriteError.self) { try target.append(bytes) }
        #expect(error == .system(operation: "write", path: "/dev/full", errno: ENOSPC))
        #expect("\(error)" == "cannot write /dev/full: No space left on device")
    }
}
