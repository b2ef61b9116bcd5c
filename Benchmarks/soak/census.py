"""Connections the harness holds open to the daemon: the daemon's descriptors beyond these are its own."""
import contextlib


class Census:
    def __init__(self):
        self.open = 0

    @contextlib.contextmanager
    def holding(self):
        self.open += 1
        try:
            yield
        finally:
            self.open -= 1
