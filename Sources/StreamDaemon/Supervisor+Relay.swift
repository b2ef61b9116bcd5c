import NIOCore

/// The daemon as a relay of an Icecast master: the master's mounts become streams beside the configured ones,
/// following its list without a restart.
extension Supervisor {
    /// Reads `relay`'s master's mount list from now on, in place of any master read so far; nil stops reading.
    func startRelay(_ relay: RelayConfig?) {
        let state = self.state.value
        state.relay?.stop()
        state.relay = relay.map { relay in
            RelayListPoller(config: relay, client: outbound, eventLoop: eventLoop, logger: logger) { [self] mounts in
                relayListed(mounts)
            }
        }
        state.relay?.start()
    }

    /// The master listed `mounts`, other than before: the relayed streams follow at once, or after the reload
    /// under way.
    private func relayListed(_ mounts: [String]) {
        let state = self.state.value
        guard !state.stopping else { return }
        let shown = mounts.prefix(10).joined(separator: " ") + (mounts.count > 10 ? " …" : "")
        logger.info("the master lists \(mounts.count) mounts: \(shown)")
        state.relayMounts = mounts
        guard state.reloadPhase == .idle else {
            state.relayChanged = true
            return
        }
        state.reloadPhase = .applying
        apply(state.config)
    }

    /// `config`'s streams, then one relaying each of `mounts` that can be relayed beside them; those that cannot
    /// are logged.
    func streamConfigs(of config: DaemonConfig, relaying mounts: [String]) -> [StreamConfig] {
        guard let relay = config.relay else { return config.streams }
        var reserved: Set<String> = []
        if let control = config.controlSocket { reserved.insert(control.path) }
        if case .unix(let path) = config.metrics { reserved.insert(path) }
        let relayed = RelayedStreams(relay: relay, mounts: mounts, besides: config.streams, reserved: reserved)
        for skipped in relayed.skipped {
            logger.warning("not relaying the master's \(skipped.mount): \(skipped.reason)")
        }
        return config.streams + relayed.streams
    }
}
