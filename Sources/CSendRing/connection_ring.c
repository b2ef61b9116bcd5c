// Receives and sends through liburing for the HLS players of audiostreamd (Sources/StreamDaemon/HLS/HLSLane.swift).
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include "connection_ring.h"

#ifndef IORING_FEAT_MIN_TIMEOUT
#define IORING_FEAT_MIN_TIMEOUT (1U << 15)
#endif

struct connection_ring {
    struct io_uring ring;
    int links;
    int batches;
};

connection_ring *connection_ring_create(unsigned entries) {
    connection_ring *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    // SUBMIT_ALL: an operation that fails at once must not leave those after it unsubmitted. DEFER_TASKRUN: a
    // completion's work waits until the thread asks for completions, and wakes it only once a batch is there.
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
    // Waiting with a timeout takes EXT_ARG (Linux 5.11).
    if (failed == 0 && !(made->ring.features & IORING_FEAT_EXT_ARG)) {
        io_uring_queue_exit(&made->ring);
        failed = -EOPNOTSUPP;
    }
    if (failed < 0) {
        free(made);
        errno = -failed;
        return NULL;
    }
    // A send that takes every byte before its linked receive starts, and posts nothing when it does, needs
    // MSG_WAITALL on sends (Linux 6.0, when SEND_ZC came) and CQE_SKIP_SUCCESS.
    struct io_uring_probe *probe = io_uring_get_probe_ring(&made->ring);
    made->links = probe != NULL && io_uring_opcode_supported(probe, IORING_OP_SEND_ZC)
        && (made->ring.features & IORING_FEAT_CQE_SKIP);
    if (probe != NULL) io_uring_free_probe(probe);
    made->batches = (made->ring.features & IORING_FEAT_MIN_TIMEOUT) != 0;
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

int connection_ring_wake_create(void) {
    return eventfd(0, EFD_CLOEXEC);
}

void connection_ring_wake(int wake) {
    eventfd_write(wake, 1);
}

int connection_ring_read(connection_ring *ring, int descriptor, void *buffer, uint32_t length, uint64_t tag) {
    int failed = 0;
    struct io_uring_sqe *sqe = entry(ring, &failed);
    if (sqe == NULL) return failed;
    io_uring_prep_read(sqe, descriptor, buffer, length, 0);
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

int connection_ring_links(connection_ring *ring) {
    return ring->links;
}

int connection_ring_send_then_receive(connection_ring *ring, int socket, const void *bytes, uint32_t length,
                                      uint64_t send_tag, void *buffer, uint32_t capacity, uint64_t receive_tag) {
    // Both entries in one submission: a link must not be cut by a submission between them.
    if (io_uring_sq_space_left(&ring->ring) < 2) {
        int submitted = io_uring_submit(&ring->ring);
        if (submitted < 0) return submitted;
        if (io_uring_sq_space_left(&ring->ring) < 2) return -EBUSY;
    }
    struct io_uring_sqe *send = io_uring_get_sqe(&ring->ring);
    io_uring_prep_send(send, socket, bytes, length, MSG_NOSIGNAL | MSG_WAITALL);
    io_uring_sqe_set_data64(send, send_tag);
    io_uring_sqe_set_flags(send, IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS);
    struct io_uring_sqe *receive = io_uring_get_sqe(&ring->ring);
    io_uring_prep_recv(receive, socket, buffer, capacity, 0);
    io_uring_sqe_set_data64(receive, receive_tag);
    return 0;
}

int connection_ring_wait(connection_ring *ring, unsigned batch, unsigned batch_wait_us, int64_t timeout_ns) {
    int submitted = io_uring_submit(&ring->ring);
    while (submitted == -EINTR) submitted = io_uring_submit(&ring->ring);
    if (submitted == -EBUSY || submitted == -EAGAIN) {
        batch = 1;
        if (timeout_ns < 0 || timeout_ns > 1000000) timeout_ns = 1000000;
    } else if (submitted < 0) {
        return submitted;
    }
    // Without waiting, the completions that came are still posted: deferred work runs only when asked for.
    if (timeout_ns == 0) {
        int got = io_uring_get_events(&ring->ring);
        return got < 0 && got != -EINTR ? got : 0;
    }
    // Without a timeout of its own the kernel ends the wait when the batch's wait is over, events or not: a
    // wait without limit is an hour's. A timeout shorter than the batch's wait is a plain one.
    if (timeout_ns < 0) timeout_ns = 3600 * (int64_t)1000000000;
    int batching = ring->batches && timeout_ns > (int64_t)batch_wait_us * 1000;
    struct __kernel_timespec limit = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    // The field after sigmask_sz, padding before Linux 6.13, is then the batch's wait in microseconds.
    struct io_uring_getevents_arg arg = {
        .sigmask_sz = _NSIG / 8,
        .pad = batching ? batch_wait_us : 0,
        .ts = (uint64_t)(uintptr_t)&limit,
    };
    int waited = io_uring_enter2(ring->ring.ring_fd, 0, batching ? batch : 1,
                                 IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, (sigset_t *)&arg, sizeof arg);
    return waited < 0 && waited != -ETIME && waited != -EINTR ? waited : 0;
}

unsigned connection_ring_reap(connection_ring *ring, uint64_t *tags, int32_t *results, unsigned capacity) {
    struct io_uring_cqe *completion;
    unsigned head, seen = 0;
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
