import AudioStreamProtocol
import NIOHTTP1
@testable import StreamDaemon
import Testing

/// A source client's request head read as its station: the `ice-*` fields libshout, ffmpeg and BUTT send, the
/// `icy-*` ones of SHOUTcast's habits, and no ICY metadata interval, which a source's body never has.
@Suite struct SourceHeadersTests {
    @Test func iceFieldsAndTheAudioInfosBitRateMakeTheStation() {
        let info = HTTPStreamInfo(sourceHeaders: [
            "Content-Type": "audio/aacp", "ice-name": "Night Shift", "ice-genre": "Ambient",
            "ice-url": "https://a.example", "ice-description": "Slow", "ice-audio-info": "ice-samplerate=44100;ice-bitrate=64;ice-channels=2",
            "icy-metaint": "8192",
        ])
        #expect(info == HTTPStreamInfo { name in
            ["content-type": "audio/aacp", "icy-name": "Night Shift", "icy-genre": "Ambient",
             "icy-url": "https://a.example", "icy-description": "Slow", "icy-br": "64"][name]
        })
    }

    @Test func iceBitrateComesFirstThenTheAudioInfoThenIcyFields() {
        #expect(HTTPStreamInfo(sourceHeaders: ["ice-bitrate": "128", "ice-audio-info": "bitrate=96"]).bitRate == 128)
        #expect(HTTPStreamInfo(sourceHeaders: ["ice-audio-info": "samplerate=48000;bitrate=96"]).bitRate == 96)
        #expect(HTTPStreamInfo(sourceHeaders: ["icy-br": "32", "icy-name": "Old"]).bitRate == 32)
        #expect(HTTPStreamInfo(sourceHeaders: ["icy-name": "Old", "ice-name": "New"]).name == "New")
    }
}
