/// What a hub keeps for its HTTP listeners and Icecast outputs: what their response head says, what a newcomer
/// among them gets before the packets, and the listeners waiting for the stream to be servable.
struct MountState {
    /// What HTTP listeners are told in their response's head, once the stream's format is known.
    var info: MountInfo?
    /// The ICY metadata block of the current title.
    var icyMetadata: QueuedMessage?
    /// What HTTP listeners and outputs get before any packet (an Ogg stream's header pages).
    var header: QueuedMessage?
    /// Listeners that came before the stream could be served, by id: each is called once it can be, with true,
    /// or with false when the stream ends first.
    private var waiters: [Int: (Bool) -> Void] = [:]
    private var lastWaiterID = 0

    /// Listeners waiting for the stream to be servable.
    var waitingCount: Int { waiters.count }

    /// What a newcomer among the listeners gets first: the current title, then the header.
    var opening: [QueuedMessage] { [icyMetadata, header].compactMap { $0 } }

    /// Keeps `servable` until `takeWaiters()`, unless removed first with the returned id.
    mutating func addWaiter(_ servable: @escaping (Bool) -> Void) -> Int {
        lastWaiterID += 1
        waiters[lastWaiterID] = servable
        return lastWaiterID
    }

    /// Forgets the waiter `id`; returns whether it was waiting.
    mutating func removeWaiter(_ id: Int) -> Bool {
        waiters.removeValue(forKey: id) != nil
    }

    /// Every waiting listener, for the hub to call once it is told whether the stream can be served.
    mutating func takeWaiters() -> [(Bool) -> Void] {
        defer { waiters = [:] }
        return Array(waiters.values)
    }
}
