import AudioFileStream
import AudioFileWriting
import Testing

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
