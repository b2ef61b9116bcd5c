import Foundation
@testable import StreamDaemon
import Testing

/// A composition's list as the configuration and the playlist reader read it: listed items with their ranges,
/// M3U/M3U8 and PLS files (relative entries from the playlist file's folder) and folders (audio files by name).
@Suite struct PlaylistSourceTests {
    /// A folder that goes away with the test.
    final class Folder {
        let url: URL

        init() throws {
            url = try DaemonHarness.makeFolder()
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        @discardableResult
        func write(_ name: String, _ text: String) throws -> String {
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
            return path(name)
        }

        func load(_ yaml: String) throws -> SourceConfig {
            try ConfigLoader(file: try write("config.yaml", yaml)).load().streams[0].source
        }
    }

    @Test func listedItemsKeepTheirRangesAndOptions() throws {
        let folder = try Folder()
        let source = try folder.load("""
            streams:
              - name: show
                socket: show.sock
                source:
                  playlist:
                    - file: a.flac
                    - {file: /music/b.mp3, from: 12.5, to: 80}
                  loop: true
                  shuffle: false
                  pace: 2
            """)
        let expected = PlaylistConfig(
            items: .listed([PlaylistItem(path: folder.path("a.flac")), PlaylistItem(path: "/music/b.mp3", from: 12.5, to: 80)]),
            loop: true, shuffle: false, pace: .realTime(speed: 2))
        #expect(source == .playlist(expected))
    }

    @Test func anM3UListsItsEntriesFromItsOwnFolder() throws {
        let folder = try Folder()
        let list = try folder.write("lists/show.m3u8", """
            \u{FEFF}#EXTM3U
            #EXTINF:123,Artist - Title
            one.mp3

              sub/two.flac  
            /abs/three.ogg
            file:///abs/four%20five.opus
            """)
        let items = try Playlist.items(of: .playlistFile(path: list)).map(\.path)
        #expect(items == [folder.path("lists/one.mp3"), folder.path("lists/sub/two.flac"), "/abs/three.ogg",
                          "/abs/four five.opus"])
    }

    @Test func aLatin1M3UIsRead() throws {
        let folder = try Folder()
        let list = folder.path("old.m3u")
        try Data("caf\u{E9}.mp3\n".data(using: .isoLatin1)!).write(to: URL(fileURLWithPath: list))
        #expect(try Playlist.items(of: .playlistFile(path: list)).map(\.path) == [folder.path("café.mp3")])
    }

    @Test func aPLSListsItsFilesInTheOrderOfTheirNumbers() throws {
        let folder = try Folder()
        let list = try folder.write("show.pls", """
            [playlist]
            File2=b.mp3
            Title2=B
            File1=/abs/a.flac
            Length1=-1
            File10=c.ogg
            NumberOfEntries=3
            Version=2
            """)
        let items = try Playlist.items(of: .playlistFile(path: list)).map(\.path)
        #expect(items == ["/abs/a.flac", folder.path("b.mp3"), folder.path("c.ogg")])
    }

    @Test func aFolderGivesItsAudioFilesByName() throws {
        let folder = try Folder()
        for name in ["b.mp3", "a.FLAC", "notes.txt", "c.opus", "cover.jpg", "sub/d.mp3"] { try folder.write("music/\(name)", "") }
        let items = try Playlist.items(of: .folder(path: folder.path("music"))).map(\.path)
        #expect(items == ["a.FLAC", "b.mp3", "c.opus"].map { folder.path("music/\($0)") })
    }

    @Test func aPathIsAFileOrAFolderFromTheConfigurationsFolder() throws {
        let folder = try Folder()
        try folder.write("show.m3u", "x.mp3\n")
        try folder.write("music/x.mp3", "")
        for (written, expected) in [("show.m3u", PlaylistConfig.Items.playlistFile(path: folder.path("show.m3u"))),
                                    ("music", .folder(path: folder.path("music")))] {
            let source = try folder.load("""
                streams:
                  - {name: show, socket: show.sock, source: {playlist: \(written)}}
                """)
            #expect(source == .playlist(PlaylistConfig(items: expected)))
        }
    }

    @Test func aPlaylistCanBeAFallback() throws {
        let folder = try Folder()
        let config = try ConfigLoader(file: try folder.write("config.yaml", """
            streams:
              - name: show
                socket: show.sock
                source: http://radio.example/live.mp3
                fallback: {playlist: [{file: a.mp3, to: 30}], loop: true}
            """)).load()
        let expected = PlaylistConfig(items: .listed([PlaylistItem(path: folder.path("a.mp3"), to: 30)]), loop: true)
        #expect(config.streams[0].fallback == .playlist(expected))
    }

    @Test(arguments: [
        ("{playlist: []}", "expected at least one item"),
        ("{playlist: [{file: a.mp3, from: 10, to: 5}]}", "must be later than from"),
        ("{playlist: [{file: a.mp3, from: -1}]}", "expected seconds into the file"),
        ("{playlist: [{path: a.mp3}]}", "unknown key"),
        ("{playlist: missing.m3u}", "cannot read"),
        ("{playlist: empty.m3u}", "lists no audio file"),
        ("{list: [{file: a.mp3}]}", "unknown key"),
    ])
    func aBadPlaylistIsRefused(source: String, mentions: String) throws {
        let folder = try Folder()
        try folder.write("empty.m3u", "#EXTM3U\n")
        let error = try #require(throws: ConfigError.self) {
            try folder.load("streams:\n  - {name: show, socket: show.sock, source: \(source)}\n")
        }
        #expect(error.problem.contains(mentions), "\(error)")
        #expect(error.key.hasPrefix("streams[0].source"), "\(error)")
    }
}
