#ifndef CONNECTION_RING_H
#define CONNECTION_RING_H

#include <stdint.h>

/// An io_uring that receives from and sends to many connections, and reads an eventfd that other threads write
/// to wake it. Confined to the thread that made it, which waits for its completions in `connection_ring_wait`.
typedef struct connection_ring connection_ring;

/// A ring with room for `entries` operations per submission and sixteen times as many completions; NULL with errno
/// set where io_uring is refused. Call on the thread that will use it.
connection_ring *connection_ring_create(unsigned entries);

/// Closes the ring; operations in flight are cancelled by the kernel.
void connection_ring_destroy(connection_ring *ring);

/// Queues a receive of up to `length` bytes from `socket` into `buffer` (with `MSG_PEEK` when `peek`), tagged
/// `tag`; the buffer must stay valid until its completion. Returns 0, or a negative errno when the ring failed.
int connection_ring_receive(connection_ring *ring, int socket, void *buffer, uint32_t length, int peek,
                            uint64_t tag);

/// A blocking eventfd that wakes a ring's thread when written, its ring reading it (`connection_ring_read`);
/// -1 with errno set when refused.
int connection_ring_wake_create(void);

/// Adds one to `wake`, an eventfd of `connection_ring_wake_create`; safe on any thread.
void connection_ring_wake(int wake);

/// Queues a read of up to `length` bytes from `descriptor` (an eventfd, a pipe) into `buffer`, tagged `tag`;
/// returns as `connection_ring_receive` does.
int connection_ring_read(connection_ring *ring, int descriptor, void *buffer, uint32_t length, uint64_t tag);

/// Queues a send of `length` bytes at `buffer` to `socket` (`MSG_NOSIGNAL`), tagged `tag`: it completes once the
/// socket took some of them, or failed. The buffer must stay valid until its completion. Returns as
/// `connection_ring_receive` does.
int connection_ring_send(connection_ring *ring, int socket, const void *buffer, uint32_t length, uint64_t tag);

/// Whether the ring takes `connection_ring_send_then_receive` (Linux 6.0 or later).
int connection_ring_links(connection_ring *ring);

/// Queues a send of all `length` bytes at `bytes` to `socket`, tagged `send_tag`, then, once it has sent them, a
/// receive into `buffer` tagged `receive_tag`. The send completes only if it fails (a negative errno, or fewer bytes
/// than asked), and the receive then completes with `-ECANCELED`; else the receive's completion says the send is
/// done. Both buffers must stay valid until the receive's completion. Returns as `connection_ring_receive` does.
int connection_ring_send_then_receive(connection_ring *ring, int socket, const void *bytes, uint32_t length,
                                      uint64_t send_tag, void *buffer, uint32_t capacity, uint64_t receive_tag);

/// Hands every queued operation to the kernel, then sleeps until `batch` completions are posted, or, once
/// `batch_wait_us` microseconds of sleep have passed, until one is (before Linux 6.13, or with a shorter timeout:
/// until the first); at most `timeout_ns` (0: not at all, but those posted are taken in; negative: no limit).
/// Where the kernel holds completions not taken yet, or lacks memory, the operations stay queued and it waits at
/// most a millisecond. Returns 0, or a negative errno.
int connection_ring_wait(connection_ring *ring, unsigned batch, unsigned batch_wait_us, int64_t timeout_ns);

/// Takes up to `capacity` completions: each one's tag and result (bytes, or a negative errno, as `recv(2)` and
/// `send(2)` return). Returns how many it took.
unsigned connection_ring_reap(connection_ring *ring, uint64_t *tags, int32_t *results, unsigned capacity);

#endif
