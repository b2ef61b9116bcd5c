// Receives and sends through liburing for the HLS players of audiostreamd (Sources/StreamDaemon/HLS/HLSLane.swift).
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include "connection_ring.h"

struct connection_ring {
    struct io_uring ring;
};

connection_ring *connection_ring_create(unsigned entries, int *signalled) {
    connection_ring *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    int signal = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (signal < 0) {
        free(made);
        return NULL;
    }
    // SUBMIT_ALL: an operation that fails at once must not leave those after it unsubmitted. DEFER_TASKRUN
    // (Linux 6.1) runs the completions' work when the ring's thread asks for them, not by interrupting it: the
    // eventfd still says that there is work. Where it is refused, COOP_TASKRUN spares at least the interrupts.
    const unsigned flags[] = {
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN,
        IORING_SETUP_SUBMIT_ALL,
    };
    int failed = -EINVAL;
    for (unsigned i = 0; i < sizeof flags / sizeof *flags && failed == -EINVAL; i++) {
        struct io_uring_params params = {.flags = flags[i] | IORING_SETUP_CQSIZE, .cq_entries = 16 * entries};
        failed = io_uring_queue_init_params(entries, &made->ring, &params);
    }
    if (failed == 0) failed = io_uring_register_eventfd(&made->ring, signal);
    if (failed < 0) {
        if (made->ring.ring_fd > 0) io_uring_queue_exit(&made->ring);
        close(signal);
        free(made);
        errno = -failed;
        return NULL;
    }
    *signalled = signal;
    return made;
}

void connection_ring_destroy(connection_ring *ring) {
    if (ring == NULL) return;
    io_uring_queue_exit(&ring->ring);
    free(ring);
}

// A free submission entry, making room by submitting what is queued when the ring is full.
static struct io_uring_sqe *entry(connection_ring *ring, int *failed) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&ring->ring);
    if (sqe != NULL) return sqe;
    int submitted = io_uring_submit(&ring->ring);
    if (submitted < 0) {
        *failed = submitted;
        return NULL;
    }
    sqe = io_uring_get_sqe(&ring->ring);
    if (sqe == NULL) *failed = -EBUSY;
    return sqe;
}

int connection_ring_receive(connection_ring *ring, int socket, void *buffer, uint32_t length, int peek,
                            uint64_t tag) {
    int failed = 0;
    struct io_uring_sqe *sqe = entry(ring, &failed);
    if (sqe == NULL) return failed;
    io_uring_prep_recv(sqe, socket, buffer, length, peek ? MSG_PEEK : 0);
    io_uring_sqe_set_data64(sqe, tag);
    return 0;
}

int connection_ring_send(connection_ring *ring, int socket, const void *buffer, uint32_t length, uint64_t tag) {
    int failed = 0;
    struct io_uring_sqe *sqe = entry(ring, &failed);
    if (sqe == NULL) return failed;
    io_uring_prep_send(sqe, socket, buffer, length, MSG_NOSIGNAL);
    io_uring_sqe_set_data64(sqe, tag);
    return 0;
}

int connection_ring_submit(connection_ring *ring) {
    int submitted = io_uring_submit(&ring->ring);
    while (submitted == -EINTR) submitted = io_uring_submit(&ring->ring);
    return submitted < 0 ? submitted : 0;
}

unsigned connection_ring_reap(connection_ring *ring, uint64_t *tags, int32_t *results, unsigned capacity) {
    struct io_uring_cqe *completion;
    unsigned head, seen = 0;
    // Deferred work posts its completions only when asked.
    if ((ring->ring.flags & IORING_SETUP_DEFER_TASKRUN) && io_uring_cq_ready(&ring->ring) == 0) {
        io_uring_get_events(&ring->ring);
    }
    io_uring_for_each_cqe(&ring->ring, head, completion) {
        if (seen == capacity) break;
        tags[seen] = io_uring_cqe_get_data64(completion);
        results[seen] = completion->res;
        seen++;
    }
    io_uring_cq_advance(&ring->ring, seen);
    // Completions beyond the queue wait in the kernel, unannounced: fetched now, taken by the next call.
    if (seen < capacity && io_uring_cq_has_overflow(&ring->ring)) io_uring_get_events(&ring->ring);
    return seen;
}
