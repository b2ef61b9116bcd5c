import Foundation
import Glibc
import Logging
import Metrics
import NIOCore
import NIOPosix
import Prometheus

/// `audiostreamd` itself: runs a configuration in the foreground until a signal or the end of every stream.
public enum Daemon {
    /// Runs the streams of `configFile`: SIGHUP reloads it, SIGTERM and SIGINT stop the daemon.
    /// - Returns: the exit status: 0 after a clean stop, 1 when the daemon could not start.
    public static func run(configFile: String) -> Int32 {
        let signals = SignalRouter()
        // The router must outlive the run: its deinit stops catching signals.
        defer { withExtendedLifetime(signals) {} }
        signal(SIGPIPE, SIG_IGN)
        let descriptorLimit = DescriptorLimit.raiseSoftLimitToHard()
        let logger = Logger(label: "audiostreamd")
        let config: DaemonConfig
        do {
            config = try ConfigLoader(file: configFile).load()
        } catch {
            logger.critical("\(error)")
            return 1
        }
        let systemd = SystemdContext(environment: ProcessInfo.processInfo.environment)
        if !systemd.sockets.isEmpty { logger.info("sockets from systemd: \(systemd.sockets.summary)") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        defer { try? group.syncShutdownGracefully() }
        // Before any stream exists: metrics are bound to the backend when they are made.
        let registry = config.metrics.map { _ in PrometheusCollectorRegistry() }
        if let registry { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
        let supervisor = Supervisor(configFile: configFile, config: config, group: group, systemd: systemd)
        signals.attach(supervisor)
        var httpListener: SubscriberSocket.Listener?
        defer { try? httpListener?.close().wait() }
        do {
            try supervisor.start().wait()
            if let http = supervisor.httpServer {
                httpListener = try http.start(group: group, logger: logger, descriptorLimit: descriptorLimit)
                logger.info("HTTP on \(http.config.address)")
            }
        } catch {
            let status: Int32 = signals.stopRequested ? 0 : 1
            if status != 0 { logger.critical("cannot start: \(error)") }
            supervisor.stop(status: status)
            return (try? supervisor.finished.futureResult.wait()) ?? 1
        }
        var metricsServer: ListeningSocket?
        if let address = config.metrics, let registry {
            do {
                metricsServer = try MetricsServer.start(
                    at: address, on: group.next(), inherited: systemd.sockets, registry: registry,
                    refresh: {
                        HeapMetrics.update()
                        return supervisor.updateMetrics()
                    }
                ).wait()
                logger.info("metrics on \(address)")
            } catch {
                logger.error("metrics not served at \(address): \(error)")
            }
        }
        defer { _ = metricsServer?.close() }
        logger.info("running \(config.streams.count) stream(s) from \(configFile)")
        supervisor.started()
        supervisor.startServiceTicks()
        let trimming = HeapTrimmer.start(on: group.next())
        defer { trimming.cancel() }
        return (try? supervisor.finished.futureResult.wait()) ?? 1
    }

    /// Checks a configuration without running it, as starting would.
    /// - Throws: `ConfigErrors` locating every problem.
    public static func check(configFile: String) throws -> DaemonConfig {
        try ConfigLoader(file: configFile).check()
    }
}
