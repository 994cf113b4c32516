"""The host's end of the command channel to a sandbox's init (``init.py`` defines the frames).

The channel is the container's attach stream, opened once when the container is created: the
host writes requests to the init's stdin and one thread per sandbox reads the init's stdout,
routing each frame to the command it belongs to. Frames of a command nobody waits for any more
(it timed out, or flooded) are dropped.
"""

from __future__ import annotations

import itertools
import json
import queue
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

from fastapi_env.sandbox.init import (
    EXIT,
    FAILED,
    FRAME_HEAD,
    REFUSED,
    REQUEST_HEAD,
    STDERR,
    STDOUT,
)

CLOSED = 0  # a pseudo frame: the stream ended (the container stopped or was removed)
DOCKER_HEAD = struct.Struct(">BxxxI")  # the engine's multiplexing header: stream, size

__all__ = ["CLOSED", "EXIT", "FAILED", "REFUSED", "STDERR", "STDOUT", "Channel", "engine_frames"]


def engine_frames(buffer: bytearray) -> Iterator[tuple[int, bytes]]:
    """Take the complete frames of the engine's multiplexed stream (attach or exec) off the front
    of ``buffer``, as (stream, payload); a partial frame stays for the next read."""
    while len(buffer) >= DOCKER_HEAD.size:
        stream, size = DOCKER_HEAD.unpack_from(buffer)
        end = DOCKER_HEAD.size + size
        if len(buffer) < end:
            return
        payload = bytes(buffer[DOCKER_HEAD.size:end])
        del buffer[:end]
        yield stream, payload


class Channel:
    """Commands over one attach socket. ``submit`` is thread-safe."""

    def __init__(self, attached: Any, name: str) -> None:
        self._attached = attached  # docker-py's wrapper: keeps the connection alive
        self._sock: socket.socket = getattr(attached, "_sock", attached)
        self._sock.settimeout(None)  # the reader waits as long as the box lives
        self._send_lock = threading.Lock()
        self._waiters: dict[int, queue.SimpleQueue] = {}
        self._ids = itertools.count(1)
        self.closed = False
        self.stderr_tail = b""  # what the init itself printed last (a crash's traceback)
        self._reader = threading.Thread(target=self._read_forever, daemon=True,
                                        name=f"channel-{name}")
        self._reader.start()

    def submit(self, request: dict[str, Any],
               stdin: bytes | None = None) -> tuple[int, queue.SimpleQueue]:
        """Send a request (a header as ``init.py`` defines, without the id); its frames arrive
        on the returned queue as ``(kind, payload)``."""
        command_id = next(self._ids)
        replies: queue.SimpleQueue = queue.SimpleQueue()
        self._waiters[command_id] = replies
        header = json.dumps({"id": command_id, **request}).encode()
        data = stdin or b""
        try:
            with self._send_lock:
                if self.closed:
                    raise OSError("the channel is closed")
                self._sock.sendall(REQUEST_HEAD.pack(len(header), len(data)) + header + data)
        except OSError:
            self.forget(command_id)
            raise
        return command_id, replies

    def forget(self, command_id: int) -> None:
        self._waiters.pop(command_id, None)

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _read_forever(self) -> None:
        engine_bytes, init_bytes = bytearray(), bytearray()
        try:
            while chunk := self._sock.recv(1 << 16):
                engine_bytes += chunk
                self._split_engine_frames(engine_bytes, init_bytes)
                self._dispatch(init_bytes)
        except OSError:
            pass
        finally:
            self.closed = True
            for replies in list(self._waiters.values()):
                replies.put((CLOSED, b""))

    def _split_engine_frames(self, engine_bytes: bytearray, init_bytes: bytearray) -> None:
        for stream, payload in engine_frames(engine_bytes):
            if stream == 1:
                init_bytes += payload
            else:
                self.stderr_tail = (self.stderr_tail + payload)[-4096:]

    def _dispatch(self, init_bytes: bytearray) -> None:
        while len(init_bytes) >= FRAME_HEAD.size:
            kind, command_id, size = FRAME_HEAD.unpack_from(init_bytes)
            end = FRAME_HEAD.size + size
            if len(init_bytes) < end:
                return
            replies = self._waiters.get(command_id)
            if replies is not None:
                replies.put((kind, bytes(init_bytes[FRAME_HEAD.size:end])))
            del init_bytes[:end]
