import Foundation
import NIOCore

/// Icecast 2.4's admin commands (`IcecastAdminCommand`), with its parameters and XML answers, for user `admin` and
/// `http.adminPassword`. A command naming a mount that has no source on the air gets Icecast's 400, "Source does
/// not exist".
extension HTTPConnection {
    func answerAdmin(_ command: IcecastAdminCommand, _ request: HTTPRequest,
                     context: ChannelHandlerContext) throws(HTTPRefusal) {
        let credentials = request.credentials
        let accepted = server.acceptsAdmin(credentials)
        noteAuthentication(accepted, credentials, for: request.path, as: "admin call", context: context)
        guard accepted else { throw .unauthorized("user admin and the admin password needed", http11: request.isHTTP11) }
        let query = FormQuery(request.query)
        let xml = "text/xml; charset=utf-8"
        switch command {
        case .stats:
            let (serverURL, started) = (request.serverURL(fallback: server.config.address), server.started)
            let counts = server.counts
            answer(request, context: context, contentType: xml) {
                IcecastAdminXML.stats($0, counts: counts, serverURL: serverURL, started: started)
            }
        case .listmounts:
            answer(request, context: context, contentType: xml) { IcecastAdminXML.listMounts($0, now: Date()) }
        case .listclients:
            let (mount, stream) = try source(query, request)
            let listed = onAir(stream, request).flatMap { stream.listeners() }
                .map { IcecastAdminXML.listClients(mount: mount, $0, now: .now()) }
            finish(request, after: listed, contentType: xml, context: context)
        case .killsource:
            let (_, stream) = try source(query, request)
            let removed = stream.dropSource().flatMapThrowing { dropped in
                guard dropped else { throw Self.noSource(request) }
                return IcecastAdminXML.response("Source Removed", done: true)
            }
            finish(request, after: removed, contentType: xml, context: context)
        case .killclient:
            let (_, stream) = try source(query, request)
            guard let id = query.text("id").flatMap({ Int($0) }) else {
                throw HTTPRefusal(.badRequest, "no id: id=N names the listener", http11: request.isHTTP11)
            }
            let killed = stream.dropListener(id: id).map { found in
                IcecastAdminXML.response(found ? "Client \(id) removed" : "Client \(id) not found", done: found)
            }
            finish(request, after: killed, contentType: xml, context: context)
        case .moveclients:
            try moveClients(query, request, context: context)
        }
    }

    /// `moveclients`: the listeners of `mount` go on with `destination`'s audio, which must be of the same content
    /// type, since their response head stated it.
    private func moveClients(_ query: FormQuery, _ request: HTTPRequest,
                             context: ChannelHandlerContext) throws(HTTPRefusal) {
        let (mount, stream) = try source(query, request)
        guard let path = query.text("destination"), let destination = server.mounts.stream(at: path) else {
            throw HTTPRefusal(.badRequest, "No such destination", http11: request.isHTTP11)
        }
        let types = stream.listenersContentType().and(destination.listenersContentType())
        let moved = types.flatMapThrowing { from, to in
            guard from == to else {
                throw HTTPRefusal(.badRequest, "\(path) is \(to ?? "not on the air"), \(mount) \(from ?? "nothing"): "
                                  + "its listeners cannot follow", http11: request.isHTTP11)
            }
        }.flatMap { stream.moveListeners(to: destination) }
            .map { _ in IcecastAdminXML.response("Clients moved from \(mount) to \(path)", done: true) }
        finish(request, after: moved, contentType: "text/xml; charset=utf-8", context: context)
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
        stream.mountFacts().flatMapThrowing { facts in
            guard facts.air != .off else { throw Self.noSource(request) }
        }
    }

    /// Icecast's answer for a mount without a source.
    private static func noSource(_ request: HTTPRequest) -> HTTPRefusal {
        HTTPRefusal(.badRequest, "Source does not exist", http11: request.isHTTP11)
    }
}
