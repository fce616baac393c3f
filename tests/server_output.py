"""A server process started by a test, its output read line by line (tests/ops/test_serving.py,
tests/browser/test_hall.py)."""

import queue
import re
import subprocess
import threading

import pytest


class ServerOutput:
    """Reads `process`'s output in a thread; `wait_for` gives the first line from here on that matches."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 300) -> re.Match:
        """The first line (from here on) matching `pattern`; fails if none comes within `timeout` seconds."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                pytest.fail(f"no line matching {pattern!r}:\n" + "\n".join(self.output))
            self.output.append(line)
            if found := re.search(pattern, line):
                return found
