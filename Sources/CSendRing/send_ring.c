// Sends through liburing for the HTTP listeners of audiostreamd (Sources/StreamDaemon/Server/SendRing.swift).
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "send_ring.h"

struct send_ring {
    struct io_uring ring;
    unsigned entries;
};

send_ring *send_ring_create(unsigned entries) {
    send_ring *made = calloc(1, sizeof *made);
    if (made == NULL) return NULL;
    // SUBMIT_ALL: a send that fails at once (a closed socket) must not leave the ones after it queued for a
    // later submission, when their buffers are gone. SINGLE_ISSUER and DEFER_TASKRUN (Linux 6.1) spare the
    // kernel work on behalf of other threads; without them the ring still works.
    const unsigned required = IORING_SETUP_SUBMIT_ALL;
    const unsigned preferred = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    struct io_uring_params params = {.flags = required | preferred};
    int failed = io_uring_queue_init_params(entries, &made->ring, &params);
    if (failed == -EINVAL) {
        params = (struct io_uring_params){.flags = required};
        failed = io_uring_queue_init_params(entries, &made->ring, &params);
    }
    if (failed < 0) {
        free(made);
        errno = -failed;
        return NULL;
    }
    made->entries = entries;
    return made;
}

void send_ring_destroy(send_ring *ring) {
    if (ring == NULL) return;
    io_uring_queue_exit(&ring->ring);
    free(ring);
}

// Takes every completion there is, each naming its send by index; returns how many.
static unsigned reap(send_ring *ring, int32_t *results) {
    struct io_uring_cqe *completion;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring->ring, head, completion) {
        results[completion->user_data] = completion->res;
        seen++;
    }
    io_uring_cq_advance(&ring->ring, seen);
    return seen;
}

// Makes sends [first, first + count) in one submission and waits until each has completed.
static int send_batch(send_ring *ring, unsigned first, unsigned count, const int *sockets,
                      const void *const *buffers, const uint32_t *lengths, int32_t *results) {
    for (unsigned i = first; i < first + count; i++) {
        struct io_uring_sqe *entry = io_uring_get_sqe(&ring->ring);
        io_uring_prep_send(entry, sockets[i], buffers[i], lengths[i], MSG_DONTWAIT | MSG_NOSIGNAL);
        entry->user_data = i;
        results[i] = -ECANCELED;
    }
    int submitted = io_uring_submit_and_wait(&ring->ring, count);
    while (submitted == -EINTR) submitted = io_uring_submit_and_wait(&ring->ring, count);
    unsigned completed = reap(ring, results);
    if (submitted < 0) return submitted;
    while (completed < count) {
        struct io_uring_cqe *completion;
        int waited = io_uring_wait_cqe_nr(&ring->ring, &completion, count - completed);
        if (waited < 0 && waited != -EINTR) return waited;
        completed += reap(ring, results);
    }
    return 0;
}

int send_ring_send(send_ring *ring, unsigned count, const int *sockets, const void *const *buffers,
                   const uint32_t *lengths, int32_t *results) {
    for (unsigned first = 0; first < count; first += ring->entries) {
        unsigned batch = count - first < ring->entries ? count - first : ring->entries;
        int failed = send_batch(ring, first, batch, sockets, buffers, lengths, results);
        if (failed < 0) {
            for (unsigned i = first + batch; i < count; i++) results[i] = -ECANCELED;
            return failed;
        }
    }
    return 0;
}
