#ifndef SEND_RING_H
#define SEND_RING_H

#include <stdint.h>

/// An io_uring that makes many sends, to many sockets, in one system call. Confined to the thread that made it.
typedef struct send_ring send_ring;

/// A ring that takes up to `entries` sends per system call; NULL with errno set where the kernel, a seccomp
/// filter or a missing feature (`IORING_SETUP_SUBMIT_ALL`, Linux 5.18) refuses it, and the caller sends itself.
send_ring *send_ring_create(unsigned entries);

void send_ring_destroy(send_ring *ring);

/// Sends `lengths[i]` bytes at `buffers[i]` to socket `sockets[i]` for every i below `count`, in order, each as
/// `send(2)` with `MSG_DONTWAIT | MSG_NOSIGNAL` would, and sets `results[i]` to what it returned: the bytes sent
/// (which may be fewer than asked), or a negative errno. One `io_uring_enter` per `entries` sends, and every
/// send has completed when it returns: a non-blocking send never waits in the kernel.
///
/// Returns 0; or a negative errno when the ring itself failed, after which it must not be used again: the sends
/// whose completion was seen have their results, every other has `-ECANCELED` and was not made.
int send_ring_send(send_ring *ring, unsigned count, const int *sockets, const void *const *buffers,
                   const uint32_t *lengths, int32_t *results);

#endif
