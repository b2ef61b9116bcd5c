import Foundation
import NIOCore

/// Icecast 2.4's admin commands (`IcecastAdminCommand`), with its parameters and XML answers, for user `admin` and
/// `http.adminPassword`. A command on a mount that has no source on the air gets Icecast's 400, "Source does not
/// exist" (but `killsource`, which also drops a source client not on the air yet).
extension HTTPConnection {
    func answerAdmin(_ command: IcecastAdminCommand, _ request: HTTPRequest,
                     context: ChannelHandlerContext) throws(HTTPRefusal) {
        let credentials = request.credentials
        let accepted = server.acceptsAdmin(credentials)
        noteAuthentication(accepted, credentials, for: request.path, as: "admin call", context: context)
        guard accepted else { throw .unauthorized("user admin and the admin password needed", http11: request.isHTTP11) }
        let query = FormQuery(request.query)
        switch command {
        case .stats:
            let (serverURL, started) = (request.serverURL(fallback: server.config.address), server.started)
            let (counts, mount) = (server.counts, query.text("mount"))
            // With a mount, Icecast lists that one's source alone.
            answer(request, context: context, contentType: Self.xml) { mounts in
                if let mount { try Self.requireOnAir(mounts.first { $0.mount == mount }, request) }
                return IcecastAdminXML.stats(mounts, only: mount, counts: counts, serverURL: serverURL,
                                             started: started)
            }
        case .listmounts:
            answer(request, context: context, contentType: Self.xml) { IcecastAdminXML.listMounts($0, now: Date()) }
        case .listclients:
            let (mount, stream) = try source(query, request)
            let listed = onAir(stream, request).flatMap { stream.listeners() }
                .map { IcecastAdminXML.listClients(mount: mount, $0, now: .now()) }
            finish(request, after: listed, contentType: Self.xml, context: context)
        case .killsource:
            let (_, stream) = try source(query, request)
            let removed = stream.dropSource().flatMapThrowing { dropped in
                guard dropped else { throw Self.noSource(request) }
                return IcecastAdminXML.response("Source Removed", done: true)
            }
            finish(request, after: removed, contentType: Self.xml, context: context)
        case .killclient:
            let (_, stream) = try source(query, request)
            guard let id = query.text("id").flatMap({ Int($0) }) else {
                throw HTTPRefusal(.badRequest, "Missing parameter", http11: request.isHTTP11)
            }
            let killed = onAir(stream, request).flatMap { stream.dropListener(id: id) }.map { found in
                IcecastAdminXML.response(found ? "Client \(id) removed" : "Client \(id) not found", done: found)
            }
            finish(request, after: killed, contentType: Self.xml, context: context)
        case .moveclients:
            try moveClients(query, request, context: context)
        }
    }

    private static let xml = "text/xml; charset=utf-8"

    /// `moveclients`: the listeners of `mount` go on with `destination`'s audio, which must be on the air and of the
    /// same content type, since their response head stated it (Icecast answers success and moves no one). Without
    /// a destination, as Icecast, the mounts they could go to.
    private func moveClients(_ query: FormQuery, _ request: HTTPRequest,
                             context: ChannelHandlerContext) throws(HTTPRefusal) {
        let (mount, stream) = try source(query, request)
        guard let path = query.text("destination") else {
            return answer(request, context: context, contentType: Self.xml) { mounts in
                try Self.requireOnAir(mounts.first { $0.mount == mount }, request)
                return IcecastAdminXML.listMounts(mounts, current: mount, now: Date())
            }
        }
        // Icecast's words for each refusal.
        let refuse = { @Sendable (reason: String) in HTTPRefusal(.badRequest, reason, http11: request.isHTTP11) }
        guard let destination = server.mounts.stream(at: path) else { throw refuse("No such destination") }
        guard destination !== stream else { throw refuse("supplied mountpoints are identical") }
        let moved = stream.mountFacts().and(destination.mountFacts()).flatMapThrowing { from, to in
            try Self.requireOnAir(from, request)
            guard to.air != .off else { throw refuse("Destination not running") }
            guard from.info?.contentType == to.info?.contentType else {
                throw refuse("stream \(mount) and \(path) are of different types")
            }
        }.flatMap { stream.moveListeners(to: destination) }
            .map { _ in IcecastAdminXML.response("Clients moved from \(mount) to \(path)", done: true) }
        finish(request, after: moved, contentType: Self.xml, context: context)
    }

    /// The mount the query names, and its stream.
    /// - Throws: 400 "Source does not exist" when it names no stream's mount.
    private func source(_ query: FormQuery, _ request: HTTPRequest) throws(HTTPRefusal) -> (String, StreamService) {
        guard let mount = query.text("mount"), let stream = server.mounts.stream(at: mount) else {
            throw Self.noSource(request)
        }
        return (mount, stream)
    }

    /// Succeeds when `stream` has a source on the air.
    private func onAir(_ stream: StreamService, _ request: HTTPRequest) -> EventLoopFuture<Void> {
        stream.mountFacts().flatMapThrowing { try Self.requireOnAir($0, request) }
    }

    /// - Throws: "Source does not exist" unless `facts` are those of a mount on the air.
    private static func requireOnAir(_ facts: MountFacts?, _ request: HTTPRequest) throws(HTTPRefusal) {
        guard let facts, facts.air != .off else { throw noSource(request) }
    }

    /// Icecast's answer for a mount without a source.
    private static func noSource(_ request: HTTPRequest) -> HTTPRefusal {
        HTTPRefusal(.badRequest, "Source does not exist", http11: request.isHTTP11)
    }
}
