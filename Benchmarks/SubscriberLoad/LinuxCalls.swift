import Glibc

/// epoll and timerfd, which Swift's Glibc module leaves out (its module map has neither <sys/epoll.h> nor
/// <sys/timerfd.h>): looked up once in the C library by name and called with their C signatures.
enum LinuxCalls {
    typealias EpollCreate1 = @convention(c) (Int32) -> Int32
    typealias EpollControl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    typealias TimerCreate = @convention(c) (Int32, Int32) -> Int32
    typealias TimerSet = @convention(c) (
        Int32, Int32, UnsafePointer<itimerspec>?, UnsafeMutablePointer<itimerspec>?
    ) -> Int32

    static let epollCreate1 = function("epoll_create1", as: EpollCreate1.self)
    static let epollControl = function("epoll_ctl", as: EpollControl.self)
    static let epollWait = function("epoll_wait", as: EpollWait.self)
    static let timerCreate = function("timerfd_create", as: TimerCreate.self)
    static let timerSet = function("timerfd_settime", as: TimerSet.self)

    // Constants of <sys/epoll.h> and <sys/timerfd.h>; the CLOEXEC and NONBLOCK flags are the open(2) ones.
    static let epollIn: UInt32 = 0x001
    static let epollAdd: Int32 = 1
    static let epollDelete: Int32 = 2
    static let timerAbsolute: Int32 = 1

    /// Bytes of one `struct epoll_event` and where its data field starts: packed on x86-64 only.
    #if arch(x86_64)
    static let epollEventSize = 12
    static let epollDataOffset = 4
    #else
    static let epollEventSize = 16
    static let epollDataOffset = 8
    #endif

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("\(name) is not in the C library") }
        return unsafeBitCast(symbol, to: type)
    }
}
