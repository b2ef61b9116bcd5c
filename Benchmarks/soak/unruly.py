"""The crowd: socket subscribers and HTTP listeners that connect, stall, read slowly and go away at random.

Each client slot runs one client after another for the whole soak, each on a random stream with a random
behaviour and lifetime, and leaves abruptly (a reset) half of the time. Their sockets have small receive
buffers and their readers small limits, so that a client that stops reading fills the daemon's queue within
seconds instead of the kernel's megabytes: the daemon then drops its packets and, after disconnectAfter,
closes it.
"""
import asyncio
import random
import socket

import wire

LIFETIME = (2, 40)  # seconds a client lives, unless the daemon closes it first
RECEIVE_BUFFER = 4096
READER_LIMIT = 4096  # asyncio stops reading a connection with twice this much unread
SOCKET_KINDS = [["packets"], ["packets", "metadata", "properties"], ["metadata"], ["properties", "packets"]]


async def read_promptly(reader, rng):
    while await reader.read(65536):
        pass


async def read_slowly(reader, rng):
    while await reader.read(rng.randint(256, 4096)):
        await asyncio.sleep(rng.uniform(0.5, 2))


async def stall(reader, rng):
    await asyncio.sleep(LIFETIME[1])


async def read_to_end(reader, rng):
    """For clients the daemon should refuse or time out: wait for it to close."""
    await reader.read()


SUBSCRIBING = [(read_promptly, 25), (read_slowly, 35), (stall, 30)]


def socket_request(rng):
    """What a socket client sends: a hello (now and then with PCM, a burst or a bad kind), or nothing."""
    roll = rng.random()
    if roll < 0.05:
        return b"", read_to_end  # no hello: the daemon closes after 10 s
    if roll < 0.10:
        return wire.hello(["video"]), read_to_end  # refused with an error
    kinds = rng.choice(SOCKET_KINDS) + (["pcm"] if rng.random() < 0.05 else [])
    return wire.hello(kinds, burst=rng.choice([0, 0, 1.5, 5])), _subscribing(rng)


def http_request(rng, stream):
    """What an HTTP client sends: a GET of a mount (with or without ICY titles), a bad request, or half a head."""
    roll = rng.random()
    if roll < 0.05:
        return f"GET /{stream} HTTP/1.1\r\nHost: soak\r\n".encode(), read_to_end  # headerTimeout closes it
    if roll < 0.10:
        return rng.choice([b"GET /no-such-mount HTTP/1.0\r\n\r\n", b"POST /x HTTP/1.0\r\n\r\n"]), read_to_end
    titles = "Icy-MetaData: 1\r\n" if rng.random() < 0.5 else ""
    return f"GET /{stream} HTTP/1.0\r\n{titles}\r\n".encode(), _subscribing(rng)


def _subscribing(rng):
    behaviours, weights = zip(*SUBSCRIBING)
    return rng.choices(behaviours, weights)[0]


async def _connect_unix(path):
    return await asyncio.open_unix_connection(path, limit=READER_LIMIT)


async def _connect_tcp(port):
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    connection.setblocking(False)
    try:
        await asyncio.get_running_loop().sock_connect(connection, ("127.0.0.1", port))
    except OSError:
        connection.close()
        raise
    return await asyncio.open_connection(sock=connection, limit=READER_LIMIT)


async def client_slot(seed, census, stopping, streams, connect, request):
    """Clients one after another until the soak stops; `connect(stream)` opens, `request(rng, stream)` says what
    to send and how to read."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, 20))  # spread the first connections over the warm-up
    while not stopping.is_set():
        stream = rng.choice(streams)
        try:
            reader, writer = await connect(stream)
        except OSError:  # the stream is restarting, or the daemon's backlog is full: try another later
            await asyncio.sleep(1)
            continue
        with census.holding():
            data, behaviour = request(rng, stream)
            try:
                writer.write(data)
                await asyncio.wait_for(behaviour(reader, rng), rng.uniform(*LIFETIME))
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                pass
            finally:
                if rng.random() < 0.5:
                    writer.transport.abort()
                else:
                    writer.close()
        await asyncio.sleep(rng.uniform(0, 1))


def socket_slots(count, census, stopping, socket_paths):
    connect = lambda stream: _connect_unix(socket_paths[stream])
    request = lambda rng, stream: socket_request(rng)
    return [client_slot(1000 + i, census, stopping, list(socket_paths), connect, request) for i in range(count)]


def http_slots(count, census, stopping, mounts, port):
    connect = lambda stream: _connect_tcp(port)
    return [client_slot(5000 + i, census, stopping, mounts, connect, http_request) for i in range(count)]
