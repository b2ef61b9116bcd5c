import Foundation
import Testing

/// The systemd units in systemd/ and their installation by scripts/install.sh (what `make install` runs after its
/// release build), checked without a running systemd: CI is a container. Both use the binaries of the test build,
/// so the suite never waits for a release build.
@Suite struct SystemdUnitTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The folder holding the built `audiostreamd` and `audiostream`.
    static let build = DaemonHarness.binary("audiostreamd").deletingLastPathComponent()

    /// `systemd-analyze verify` on the staged units, the exposure of `systemd-analyze security --offline=true`,
    /// `audiostreamd --check` on the installed config and the rest of scripts/check-units.sh.
    @Test func theUnitsVerifyAndTheServiceIsHardened() throws {
        let result = try Self.run("scripts/check-units.sh", environment: ["BUILD": Self.build.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("verify: no errors, no warnings"), "\(result.output)")
        let line = result.output.split(separator: "\n").first { $0.contains("Overall exposure level for audiostreamd.service") }
        let exposure = line.flatMap { $0.split(separator: " ").compactMap { Double($0) }.first }
        #expect(exposure.map { $0 <= 2.0 } == true, "exposure line: \(line ?? "none")")
        #expect(result.output.contains("config.yaml: OK, 1 stream(s)"), "\(result.output)")
    }

    @Test func installWritesEveryFileWithTheRealPathsAndKeepsAnEditedConfig() throws {
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("asd-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: stage) }
        let environment = ["DESTDIR": stage.path, "PREFIX": "/opt/radio/", "UNITDIR": "/usr/lib/systemd/system",
                           "SYSCONFDIR": "/srv/etc", "BUILD": Self.build.path]
        let first = try Self.run("scripts/install.sh", environment: environment)
        #expect(first.status == 0, "\(first.output)")

        let executables = ["/opt/radio/bin/audiostreamd", "/opt/radio/bin/audiostream", "/opt/radio/bin/audiostream-fetch"]
        let units = ["audiostreamd.service", "audiostreamd.socket", "audiostreamd-control.socket",
                     "audiostreamd-stream@.socket"].map { "/usr/lib/systemd/system/\($0)" }
        let others = ["/opt/radio/share/audiostreamd/demo.mp3", "/opt/radio/share/doc/audiostreamd/operations.md",
                      "/srv/etc/sysusers.d/audiostreamd.conf", "/srv/etc/audiostreamd/config.yaml"]
        for path in executables + units + others {
            let attributes = try? FileManager.default.attributesOfItem(atPath: stage.path + path)
            let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == (executables.contains(path) ? 0o755 : 0o644), "\(path): mode \(mode.map { String($0, radix: 8) } ?? "missing")")
        }
        #expect(FileManager.default.contentsEqual(atPath: stage.path + "/opt/radio/share/audiostreamd/demo.mp3",
                                                  andPath: Self.root.appendingPathComponent("demo/demo.mp3").path))

        // The default paths are gone from every file that names one; the real ones are there instead.
        for path in units + ["/srv/etc/audiostreamd/config.yaml"] {
            let text = try String(contentsOfFile: stage.path + path, encoding: .utf8)
            #expect(!text.contains("/usr/local"), "\(path)")
            #expect(!text.replacingOccurrences(of: "/srv/etc/audiostreamd/", with: "").contains("/etc/audiostreamd/"),
                    "\(path)")
            #expect(!text.contains("/opt/radio//"), "\(path)")
        }
        let service = try Self.lines(stage.path + "/usr/lib/systemd/system/audiostreamd.service")
        #expect(service.contains("ExecStart=/opt/radio/bin/audiostreamd --config /srv/etc/audiostreamd/config.yaml"))
        #expect(service.contains("ExecReload=/opt/radio/bin/audiostreamd --check --config /srv/etc/audiostreamd/config.yaml"))
        #expect(service.contains("Type=notify"))
        #expect(service.contains("RuntimeDirectoryPreserve=yes"))
        let socket = try Self.lines(stage.path + "/usr/lib/systemd/system/audiostreamd.socket")
        #expect(socket.contains("ListenStream=/run/audiostreamd/demo.sock"))
        #expect(socket.contains("FileDescriptorName=demo"))
        #expect(socket.contains("Service=audiostreamd.service"))
        let config = try Self.lines(stage.path + "/srv/etc/audiostreamd/config.yaml")
        #expect(config.contains("    source: file:/opt/radio/share/audiostreamd/demo.mp3"))
        #expect(config.contains("control: /run/audiostreamd/control.sock"))

        // A second run replaces the program and the units but never the operator's config.
        let configPath = stage.path + "/srv/etc/audiostreamd/config.yaml"
        let edited = "# edited by the operator\ncontrol: /run/audiostreamd/control.sock\nstreams: []\n"
        try edited.write(toFile: configPath, atomically: true, encoding: .utf8)
        try "stale".write(toFile: stage.path + units[0], atomically: true, encoding: .utf8)
        let second = try Self.run("scripts/install.sh", environment: environment)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("kept \(configPath)"), "\(second.output)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == edited)
        #expect(try Self.lines(stage.path + units[0]).contains("Type=notify"))
        #expect(FileManager.default.isExecutableFile(atPath: stage.path + executables[0]))
    }

    @Test func installRefusesARelativePrefixAndMissingBinaries() throws {
        let stage = FileManager.default.temporaryDirectory.appendingPathComponent("asd-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: stage) }
        let relative = try Self.run("scripts/install.sh", environment: ["DESTDIR": stage.path, "PREFIX": "opt",
                                                                       "BUILD": Self.build.path])
        #expect(relative.status != 0)
        #expect(relative.output.contains("PREFIX must be an absolute path"), "\(relative.output)")
        let unbuilt = try Self.run("scripts/install.sh", environment: ["DESTDIR": stage.path, "BUILD": stage.path])
        #expect(unbuilt.status != 0)
        #expect(unbuilt.output.contains("audiostreamd is missing"), "\(unbuilt.output)")
        #expect(!FileManager.default.fileExists(atPath: stage.path + "/usr/local/bin"))
    }

    /// Runs a script of the repository with bash, `environment` added to the test's own.
    /// - Returns: its exit status, and its standard output and error together.
    static func run(_ script: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent(script).path]
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting, so that a full pipe cannot block the script.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
