"""Memory and CPU of a process and all its descendants (the PDF renderer's worker processes), from /proc.

`resource.getrusage` cannot give either: RUSAGE_CHILDREN counts only children that have ended and been
waited for (the workers are the fork server's children, not ours), and its ru_maxrss is the largest
single child, not the sum at one moment.
"""

import os
from pathlib import Path


class MemorySampler:
    """The largest sum of resident memory of this process and all its descendants, sampled every 50 ms, and
    their CPU time (the workers are the fork server's children: RUSAGE_CHILDREN would not see them)."""

    def __init__(self):
        import threading

        self.peak = 0
        self.start_ticks = tree_usage(os.getpid())[1]
        self.ticks = dict(self.start_ticks)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.wait(0.05):
            rss, ticks = tree_usage(os.getpid())
            self.peak = max(self.peak, rss)
            self.ticks.update(ticks)

    def cpu_seconds(self) -> float:
        ticks = sum(self.ticks.values()) - sum(self.start_ticks.values())
        return ticks / os.sysconf("SC_CLK_TCK")


def tree_usage(root: int) -> tuple[int, dict[int, int]]:
    """Resident bytes of `root` and its descendants together, and each one's CPU clock ticks so far."""
    parents, rss, ticks = {}, {}, {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            statm = Path(f"/proc/{entry}/statm").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(statm.split()[1]) * page
        ticks[int(entry)] = int(fields[11]) + int(fields[12])  # utime, stime
    tree, changed = {root}, True
    while changed:
        grown = tree | {pid for pid, parent in parents.items() if parent in tree}
        changed, tree = grown != tree, grown
    return sum(rss.get(pid, 0) for pid in tree), {pid: ticks[pid] for pid in tree if pid in ticks}
