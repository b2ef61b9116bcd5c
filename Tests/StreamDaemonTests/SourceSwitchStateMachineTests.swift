import AudioStreamProtocol
@testable import StreamDaemon
import Testing

/// Every transition of the rules by which a stream's sources take the air, driven without NIO: each test names
/// the state it starts from, the event, and the actions and state the rules call for.
@Suite struct SourceSwitchStateMachineTests {
    typealias Machine = SourceSwitchStateMachine

    /// An HTTP station with a fallback, lost once: the fallback starts and is probed.
    private func stationLost(fallback: Bool = true) -> Machine {
        var machine = Machine(mainTakesClients: false, hasFallback: fallback)
        _ = machine.start()
        _ = machine.connected(.main)
        _ = machine.changed(.main, to: .lost(error: "reset"))
        return machine
    }

    /// A push mount with a fallback playlist on the air, waiting for a DJ.
    private func autoDJ() -> Machine {
        var machine = Machine(mainTakesClients: true, hasFallback: true)
        _ = machine.start()
        _ = machine.confirmedByProbe(.fallback)
        return machine
    }

    // MARK: - Start and stop

    @Test func aStationOrFileHasTheAirFromTheStartAndItsBytesGoToTheStream() {
        var machine = Machine(mainTakesClients: false, hasFallback: true)
        #expect(machine.start() == [.startMain])
        #expect(machine.state == .main)
        #expect(machine.destination(of: .main) == .stream)
        #expect(machine.destination(of: .fallback) == .nowhere)
        #expect(machine.connected(.main) == [.announceConnection(.main)])
        #expect(machine.start() == [])
    }

    @Test func anOnDemandStationConnectsOnlyBetweenWakeAndSleepAndIsNeverOffTheAir() {
        var machine = Machine(mainTakesClients: false, hasFallback: false, onDemand: true)
        #expect(machine.start() == [.report(.idle)])
        #expect(machine.state == .asleep)
        #expect(machine.onAir == nil)
        #expect(machine.destination(of: .main) == .nowhere)
        #expect(machine.sleep() == [])
        #expect(machine.wake() == [.startMain])
        #expect(machine.state == .main)
        #expect(machine.destination(of: .main) == .stream)
        #expect(machine.wake() == [])
        #expect(machine.connected(.main) == [.announceConnection(.main)])
        #expect(machine.sleep() == [.stopMain, .report(.idle)])
        #expect(machine.state == .asleep)
        // Lost while someone listens: off the air, as any station; asleep, it is on again for the next to come.
        _ = machine.wake()
        #expect(machine.changed(.main, to: .lost(error: "reset")) == [.report(.lost(error: "reset")), .offAir])
        #expect(machine.sleep() == [.stopMain, .backOnAir, .report(.idle)])
        #expect(machine.stop() == [.stopMain, .backOnAir])
        #expect(machine.wake() == [])
        // Not on demand: no sleep.
        var always = Machine(mainTakesClients: false, hasFallback: false)
        _ = always.start()
        #expect(always.sleep() == [])
    }

    @Test func aPushMountWithAFallbackPlaysTheFallbackUntilTheFirstDJ() {
        var machine = Machine(mainTakesClients: true, hasFallback: true)
        #expect(machine.start() == [.startMain, .offAir, .startFallback])
        #expect(machine.state == .away(main: .absent, fallback: .probing))
        #expect(machine.destination(of: .fallback) == .probe)
        #expect(machine.destination(of: .main) == .nowhere)
    }

    @Test func aPushMountWithoutAFallbackWaitsForItsFirstDJWithNothingStarted() {
        var machine = Machine(mainTakesClients: true, hasFallback: false)
        #expect(machine.start() == [.startMain])
        #expect(machine.state == .away(main: .absent, fallback: .idle))
        #expect(machine.onAir == nil)
    }

    @Test func stoppingStopsEverySourceAndTheDeadAirClockAndIgnoresLaterEvents() {
        var machine = autoDJ()
        #expect(machine.stop() == [.stopMain, .stopFallback, .backOnAir])
        #expect(machine.state == .stopped)
        #expect(machine.connected(.main) == [])
        #expect(machine.changed(.main, to: .lost(error: "x")) == [])
        #expect(machine.destination(of: .fallback) == .nowhere)
        #expect(machine.stop() == [])
        var plain = Machine(mainTakesClients: false, hasFallback: false)
        _ = plain.start()
        #expect(plain.stop() == [.stopMain, .backOnAir])
    }

    // MARK: - The main source lost and back

    @Test func aLostStationStartsTheFallbackAndIsReportedFirst() {
        var machine = Machine(mainTakesClients: false, hasFallback: true)
        _ = machine.start()
        let lost = SourceState.lost(error: "reset")
        #expect(machine.changed(.main, to: lost) == [.report(lost), .offAir, .startFallback])
        #expect(machine.state == .away(main: .absent, fallback: .probing))
        #expect(machine.isFallbackRunning)
    }

    @Test func whileTheFallbackRunsTheMainSourcesConditionIsNotReported() {
        var machine = stationLost()
        #expect(machine.changed(.main, to: .reconnecting(attempt: 1, delay: 1)) == [])
        #expect(machine.changed(.main, to: .connected(attempt: 1)) == [])
    }

    @Test func aStationBackBeforeTheFallbackConfirmedIsProbedAndResumesItsOwnStream() {
        var machine = stationLost()
        #expect(machine.connected(.main) == [.beginProbe(.main)])
        #expect(machine.destination(of: .main) == .probe)
        #expect(machine.confirmedByProbe(.main) == [
            .stopFallback, .report(.restored), .putOnAir(.main, resumes: true), .backOnAir,
        ])
        #expect(machine.state == .main)
    }

    @Test func theFallbackTakesTheAirAtItsFirstConfirmedFrame() {
        var machine = stationLost()
        #expect(machine.connected(.fallback) == [.beginProbe(.fallback)])
        #expect(machine.confirmedByProbe(.fallback) == [
            .report(.fallback), .putOnAir(.fallback, resumes: false), .backOnAir,
        ])
        #expect(machine.state == .fallback(main: .absent))
        #expect(machine.destination(of: .fallback) == .stream)
        #expect(machine.onAir == .fallback)
    }

    @Test func theMainSourceBackFromTheFallbackIsANewFileAndStopsIt() {
        var machine = stationLost()
        _ = machine.confirmedByProbe(.fallback)
        #expect(machine.connected(.main) == [.beginProbe(.main)])
        #expect(machine.state == .fallback(main: .probing))
        #expect(machine.destination(of: .main) == .probe)
        #expect(machine.confirmedByProbe(.main) == [
            .stopFallback, .report(.restored), .putOnAir(.main, resumes: false), .backOnAir,
        ])
        #expect(machine.state == .main)
        #expect(!machine.isFallbackRunning)
    }

    @Test func aMainSourceLostWhileProbedIsAbsentAgain() {
        var machine = stationLost()
        _ = machine.confirmedByProbe(.fallback)
        _ = machine.connected(.main)
        #expect(machine.changed(.main, to: .stalled(error: "stalled")) == [])
        #expect(machine.state == .fallback(main: .absent))
        var away = stationLost()
        _ = away.connected(.main)
        _ = away.changed(.main, to: .lost(error: "x"))
        #expect(away.state == .away(main: .absent, fallback: .probing))
    }

    @Test func withoutAFallbackAReconnectedStationResumesItsStreamAtOnce() {
        var machine = stationLost(fallback: false)
        #expect(machine.state == .away(main: .absent, fallback: .idle))
        #expect(machine.connected(.main) == [.announceConnection(.main)])
        #expect(machine.state == .away(main: .resuming, fallback: .idle))
        #expect(machine.destination(of: .main) == .stream)
        #expect(machine.confirmedByStream(.main) == [.backOnAir])
        #expect(machine.state == .main)
        #expect(machine.confirmedByStream(.main) == [])
    }

    @Test func aResumingStationLostAgainIsAbsent() {
        var machine = stationLost(fallback: false)
        _ = machine.connected(.main)
        let lost = SourceState.lost(error: "again")
        #expect(machine.changed(.main, to: lost) == [.report(lost)])
        #expect(machine.state == .away(main: .absent, fallback: .idle))
    }

    // MARK: - Push clients

    @Test func everyDJIsProbedAndTakesTheAirAsANewFile() {
        var machine = autoDJ()
        #expect(machine.state == .fallback(main: .absent))
        #expect(machine.connected(.main) == [.beginProbe(.main)])
        #expect(machine.confirmedByProbe(.main) == [
            .stopFallback, .report(.restored), .putOnAir(.main, resumes: false), .backOnAir,
        ])
        // The DJ leaves: the AutoDJ starts again, and the next DJ is probed too, never resumed.
        let left = SourceState.lost(error: "the source client closed the connection")
        #expect(machine.changed(.main, to: left) == [.report(left), .offAir, .startFallback])
        _ = machine.confirmedByProbe(.fallback)
        _ = machine.connected(.main)
        #expect(machine.confirmedByProbe(.main).contains(.putOnAir(.main, resumes: false)))
    }

    @Test func withoutAFallbackEveryDJIsStillProbedNeverResumed() {
        var machine = Machine(mainTakesClients: true, hasFallback: false)
        _ = machine.start()
        #expect(machine.connected(.main) == [.beginProbe(.main)])
        #expect(machine.confirmedByProbe(.main) == [.putOnAir(.main, resumes: false), .backOnAir])
        let left = SourceState.lost(error: "gone")
        #expect(machine.changed(.main, to: left) == [.report(left), .offAir])
        #expect(machine.connected(.main) == [.beginProbe(.main)])
        #expect(machine.state == .away(main: .probing, fallback: .idle))
    }

    // MARK: - The fallback lost, failed or ended

    @Test func aFallbackStationLostOnTheAirLeavesTheStreamOffTheAirAndIsProbedAgain() {
        var machine = stationLost()
        _ = machine.confirmedByProbe(.fallback)
        #expect(machine.changed(.fallback, to: .lost(error: "reset")) == [
            .offAir, .report(.lost(error: "fallback: reset")),
        ])
        #expect(machine.state == .away(main: .absent, fallback: .probing))
        #expect(machine.connected(.fallback) == [.beginProbe(.fallback)])
        #expect(machine.confirmedByProbe(.fallback).contains(.putOnAir(.fallback, resumes: true)))
    }

    @Test func aFallbackThatFailsOnTheAirLeavesTheAirToTheMainSourceStillProbed() {
        var machine = stationLost()
        _ = machine.confirmedByProbe(.fallback)
        _ = machine.connected(.main)
        #expect(machine.ended(.fallback, failure: "cannot open x") == [
            .stopFallback, .offAir, .report(.lost(error: "fallback: cannot open x")),
        ])
        #expect(machine.state == .away(main: .probing, fallback: .failed))
        #expect(machine.destination(of: .main) == .probe)
        #expect(machine.confirmedByProbe(.main) == [.report(.restored), .putOnAir(.main, resumes: false), .backOnAir])
    }

    @Test func aFallbackThatFailsBeforeTheAirIsStoppedAndTheMainSourceNeverResumesOverIt() {
        var machine = stationLost()
        #expect(machine.ended(.fallback, failure: nil) == [.stopFallback])
        #expect(machine.state == .away(main: .absent, fallback: .failed))
        // Nothing fed the stream since the station: it resumes.
        #expect(machine.connected(.main) == [.announceConnection(.main)])
        var afterFallback = stationLost()
        _ = afterFallback.confirmedByProbe(.fallback)
        _ = afterFallback.ended(.fallback, failure: "x")
        // The fallback fed the stream last: the station is probed and comes back as a new file.
        #expect(afterFallback.connected(.main) == [.beginProbe(.main)])
    }

    @Test func aFailedFallbackStartsAgainAtTheNextLoss() {
        var machine = stationLost()
        _ = machine.ended(.fallback, failure: "x")
        _ = machine.connected(.main)
        _ = machine.confirmedByStream(.main)
        #expect(machine.changed(.main, to: .lost(error: "y")).contains(.startFallback))
        #expect(machine.state == .away(main: .absent, fallback: .probing))
    }

    // MARK: - The end

    @Test func aMainSourceThatEndsWithoutAFallbackEndsTheStream() {
        var machine = Machine(mainTakesClients: false, hasFallback: false)
        _ = machine.start()
        #expect(machine.ended(.main, failure: nil) == [.end(failure: nil)])
        #expect(machine.state == .ended)
        #expect(machine.destination(of: .main) == .nowhere)
        #expect(machine.connected(.main) == [])
    }

    @Test func aMainSourceThatEndsHandsTheAirToTheFallbackForGood() {
        var machine = Machine(mainTakesClients: false, hasFallback: true)
        _ = machine.start()
        #expect(machine.ended(.main, failure: "gave up") == [.offAir, .startFallback])
        #expect(machine.state == .away(main: .ended, fallback: .probing))
        _ = machine.confirmedByProbe(.fallback)
        #expect(machine.state == .fallback(main: .ended))
        #expect(machine.ended(.fallback, failure: nil) == [.stopFallback, .end(failure: nil)])
        #expect(machine.state == .ended)
    }

    @Test func aMainSourceThatEndsWhileTheFallbackRunsLeavesItPlaying() {
        var probing = stationLost()
        #expect(probing.ended(.main, failure: "gave up") == [])
        #expect(probing.state == .away(main: .ended, fallback: .probing))
        #expect(probing.ended(.fallback, failure: "bad") == [.stopFallback, .end(failure: "bad")])
        var playing = stationLost()
        _ = playing.confirmedByProbe(.fallback)
        #expect(playing.ended(.main, failure: "gave up") == [])
        #expect(playing.state == .fallback(main: .ended))
    }

    @Test func aMainSourceThatEndsAfterItsFallbackFailedEndsTheStream() {
        var machine = stationLost()
        _ = machine.ended(.fallback, failure: "x")
        #expect(machine.ended(.main, failure: "gave up") == [.end(failure: "gave up")])
        var withoutFallback = stationLost(fallback: false)
        #expect(withoutFallback.ended(.main, failure: "gave up") == [.end(failure: "gave up")])
    }

    // MARK: - What is not the source's turn

    @Test func aProbeOrStreamConfirmationOutOfTurnChangesNothing() {
        var machine = Machine(mainTakesClients: false, hasFallback: true)
        _ = machine.start()
        #expect(machine.confirmedByProbe(.main) == [])
        #expect(machine.confirmedByProbe(.fallback) == [])
        #expect(machine.confirmedByStream(.main) == [])
        #expect(machine.confirmedByStream(.fallback) == [])
        #expect(machine.connected(.fallback) == [])
        #expect(machine.ended(.fallback, failure: nil) == [])
        #expect(machine.state == .main)
    }

    // MARK: - Silence

    /// A station on the air with a fallback, judged silent: the fallback is started and probed.
    private func stationSilent(fallback: Bool = true) -> Machine {
        var machine = Machine(mainTakesClients: false, hasFallback: fallback)
        _ = machine.start()
        _ = machine.connected(.main)
        _ = machine.silenced(.main)
        return machine
    }

    @Test func aSilentMainKeepsTheAirUntilTheFallbackHasAFrame() {
        var machine = Machine(mainTakesClients: false, hasFallback: true)
        _ = machine.start()
        #expect(machine.silenced(.main) == [.report(.silent), .startFallback])
        #expect(machine.state == .quiet(fallback: .probing))
        #expect(machine.onAir == .main)
        #expect(machine.destination(of: .main) == .stream)
        #expect(machine.destination(of: .fallback) == .probe)
        #expect(machine.connected(.fallback) == [.beginProbe(.fallback)])
        #expect(machine.confirmedByProbe(.fallback) == [.report(.fallback), .putOnAir(.fallback, resumes: false)])
        #expect(machine.state == .fallback(main: .silent))
        #expect(machine.destination(of: .main) == .watch)
        #expect(machine.isMainSilent)
    }

    @Test func aSilentMainWithSoundAgainTakesTheAirBackFromTheFallback() {
        var machine = stationSilent()
        _ = machine.confirmedByProbe(.fallback)
        #expect(machine.sounding(.main)
            == [.stopFallback, .report(.restored), .putOnAir(.main, resumes: false), .backOnAir])
        #expect(machine.state == .main)
        #expect(!machine.isMainSilent)
    }

    @Test func soundBackBeforeTheFallbackPlaysStopsIt() {
        var machine = stationSilent()
        #expect(machine.sounding(.main) == [.stopFallback, .report(.restored)])
        #expect(machine.state == .main)
        #expect(machine.destination(of: .main) == .stream)
    }

    @Test func withoutAFallbackSilenceIsOnlyTold() {
        var machine = stationSilent(fallback: false)
        #expect(machine.state == .quiet(fallback: .idle))
        #expect(machine.onAir == .main)
        #expect(machine.sounding(.main) == [.report(.restored)])
        #expect(machine.state == .main)
    }

    @Test func aSilentFallbackChangesNothing() {
        var machine = stationLost()
        _ = machine.confirmedByProbe(.fallback)
        #expect(machine.silenced(.fallback) == [])
        #expect(machine.state == .fallback(main: .absent))
    }

    @Test func aSilentMainThatLosesItsConnectionIsLost() {
        var quiet = stationSilent()
        #expect(quiet.changed(.main, to: .lost(error: "reset")) == [.offAir])
        #expect(quiet.state == .away(main: .absent, fallback: .probing))
        var watched = stationSilent()
        _ = watched.confirmedByProbe(.fallback)
        #expect(watched.changed(.main, to: .lost(error: "reset")) == [])
        #expect(watched.state == .fallback(main: .absent))
        // Connected again, it is probed as any main source that was lost.
        #expect(watched.connected(.main) == [.beginProbe(.main)])
        #expect(watched.sounding(.main) == [])
    }

    @Test func aFallbackThatFailsWhileTheMainIsSilentLeavesTheMainOnTheAir() {
        var machine = stationSilent()
        #expect(machine.ended(.fallback, failure: "404") == [.stopFallback])
        #expect(machine.state == .quiet(fallback: .failed))
        #expect(machine.onAir == .main)
        #expect(machine.sounding(.main) == [.report(.restored)])
    }

    /// A fallback that fails while it covers a silent main leaves the main on the air, silent, rather than the
    /// stream off the air; one lost for a moment covers it again once it has a frame.
    @Test func aFallbackThatFailsWhileCoveringASilentMainHandsItTheAir() {
        var lost = stationSilent()
        _ = lost.confirmedByProbe(.fallback)
        #expect(lost.changed(.fallback, to: .lost(error: "reset"))
            == [.report(.lost(error: "fallback: reset")), .putOnAir(.main, resumes: false)])
        #expect(lost.state == .quiet(fallback: .probing))
        #expect(lost.destination(of: .main) == .stream)
        #expect(lost.confirmedByProbe(.fallback) == [.report(.fallback), .putOnAir(.fallback, resumes: false)])
        var ended = stationSilent()
        _ = ended.confirmedByProbe(.fallback)
        #expect(ended.ended(.fallback, failure: "404")
            == [.stopFallback, .report(.lost(error: "fallback: 404")), .putOnAir(.main, resumes: false)])
        #expect(ended.state == .quiet(fallback: .failed))
        #expect(ended.isMainSilent)
        #expect(ended.sounding(.main) == [.report(.restored)])
    }
}
