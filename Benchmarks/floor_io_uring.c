// The writes of a fan-out alone, sent with send(2) or through io_uring: whether io_uring's one system call per
// batch pays for audiostreamd's schedule (SubscriberLoad floor measures send(2) alone; this compares the two).
//
// N connected socket pairs (Unix, or loopback TCP with Nagle's delay off), written BYTES at RATE a second each,
// in eight slots spread over the period as audiostreamd's hub does; a second thread reads them all through epoll.
// The io_uring mode queues a slot's sends (fixed files, one shared buffer) and submits them with one
// io_uring_enter. CPU is the process's minus the reader thread's, so that any io_uring worker counts.
//
//   gcc -O2 -o floor_io_uring Benchmarks/floor_io_uring.c -luring -lpthread   (liburing-dev)
//   ./floor_io_uring SOCKETS BYTES RATE SECONDS send|uring [unix|tcp]
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { slots = 8 };
static int count, *writers, *readers;
static pthread_t reader;

static unsigned long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static double seconds(struct timespec t) { return t.tv_sec + t.tv_nsec / 1e9; }

// The process's CPU time but the reader thread's.
static double writer_cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    clockid_t clock;
    pthread_getcpuclockid(reader, &clock);
    struct timespec t;
    clock_gettime(clock, &t);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec
        + usage.ru_stime.tv_usec / 1e6 - seconds(t);
}

static void *drain(void *unused) {
    (void)unused;
    int poller = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = i};
        epoll_ctl(poller, EPOLL_CTL_ADD, readers[i], &event);
    }
    static char buffer[65536];
    struct epoll_event events[256];
    for (;;) {
        int ready = epoll_wait(poller, events, 256, -1);
        for (int j = 0; j < ready; j++)
            while (read(readers[events[j].data.u32], buffer, sizeof buffer) > 0) {}
    }
    return NULL;
}

static void connect_pairs(int tcp) {
    int listener = -1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (tcp) {
        listener = socket(AF_INET, SOCK_STREAM, 0);
        bind(listener, (struct sockaddr *)&address, length);
        listen(listener, 4096);
        getsockname(listener, (struct sockaddr *)&address, &length);
    }
    for (int i = 0; i < count; i++) {
        if (tcp) {
            readers[i] = socket(AF_INET, SOCK_STREAM, 0);
            connect(readers[i], (struct sockaddr *)&address, length);
            writers[i] = accept(listener, NULL, NULL);
            int on = 1;
            setsockopt(writers[i], IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        } else {
            int pair[2];
            socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
            writers[i] = pair[0];
            readers[i] = pair[1];
        }
        fcntl(readers[i], F_SETFL, O_NONBLOCK);
        fcntl(writers[i], F_SETFL, O_NONBLOCK);
    }
}

// Waits for `expected` completions, counting those that did not send the whole payload.
static long reap(struct io_uring *ring, unsigned expected, int bytes) {
    long short_writes = 0;
    for (unsigned reaped = 0; reaped < expected;) {
        if (reaped > 0 || io_uring_cq_ready(ring) == 0) io_uring_submit_and_wait(ring, 1);
        struct io_uring_cqe *completion;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(ring, head, completion) {
            if (completion->res != bytes) short_writes++;
            seen++;
        }
        io_uring_cq_advance(ring, seen);
        reaped += seen;
    }
    return short_writes;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s SOCKETS BYTES RATE SECONDS send|uring [unix|tcp]\n", argv[0]);
        return 2;
    }
    count = atoi(argv[1]);
    int bytes = atoi(argv[2]);
    double rate = atof(argv[3]), duration = atof(argv[4]);
    int uring = strcmp(argv[5], "uring") == 0, tcp = argc > 6 && strcmp(argv[6], "tcp") == 0;
    writers = calloc(count, sizeof *writers);
    readers = calloc(count, sizeof *readers);
    connect_pairs(tcp);
    pthread_create(&reader, NULL, drain, NULL);

    struct io_uring ring;
    if (uring) {
        struct io_uring_params params = {
            .flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER
                | IORING_SETUP_DEFER_TASKRUN,
            .cq_entries = 16384,
        };
        if (io_uring_queue_init_params(4096, &ring, &params) < 0) {
            perror("io_uring_queue_init_params");
            return 1;
        }
        io_uring_register_files(&ring, writers, count);
    }
    char *payload = malloc(bytes);
    memset(payload, 0x55, bytes);
    unsigned long long step = (unsigned long long)(1e9 / rate) / slots, start = now_ns() + 500000000ULL;
    unsigned long long end = start + (unsigned long long)(duration * 1e9);
    long writes = 0, short_writes = 0;
    double cpu_at_start = 0;
    for (unsigned long long tick = 0;; tick++) {
        unsigned long long due = start + tick * step, now = now_ns();
        if (due >= end) break;
        if (due > now) usleep((due - now) / 1000);
        if (tick == 0) cpu_at_start = writer_cpu();
        if (!uring) {
            for (int i = tick % slots; i < count; i += slots, writes++)
                if (send(writers[i], payload, bytes, MSG_NOSIGNAL | MSG_DONTWAIT) != bytes) short_writes++;
            continue;
        }
        unsigned queued = 0;
        for (int i = tick % slots; i < count; i += slots, writes++, queued++) {
            struct io_uring_sqe *entry = io_uring_get_sqe(&ring);
            if (entry == NULL) {
                io_uring_submit(&ring);
                entry = io_uring_get_sqe(&ring);
            }
            io_uring_prep_send(entry, i, payload, bytes, MSG_NOSIGNAL | MSG_DONTWAIT);
            entry->flags |= IOSQE_FIXED_FILE;
        }
        io_uring_submit(&ring);
        short_writes += reap(&ring, queued, bytes);
    }
    double cpu = writer_cpu() - cpu_at_start, wall = (now_ns() - start) / 1e9;
    printf("%s %s ×%d: %d B at %.2f/s: CPU %.1f %% of a core over %.1f s, %.2f µs per write, %ld writes, "
           "%ld short\n", uring ? "io_uring" : "send", tcp ? "tcp" : "unix", count, bytes, rate, cpu / wall * 100,
           wall, cpu / writes * 1e6, writes, short_writes);
    return 0;
}
