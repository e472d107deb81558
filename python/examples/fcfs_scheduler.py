"""First come, first served, as an in-process scheduler of slasim's batsim strategy.

The scheduler is a plain Python object with pybatsim-style callbacks; slasim
sets `self.bs`, its handle on the simulation, before the first one, and
checks every decision as it checks the Batsim bridge's. Jobs start in
submission order on the lowest free machines, once per instant (in
`on_no_more_events`), and the first job that does not fit blocks the queue: the
schedule of slasim's built-in `fcfs`, and the logic of
examples/batsim/fcfs.py, which does the same over the ZeroMQ bridge.

    python examples/fcfs_scheduler.py KTH-SP2-1996-2.1-cln.swf.gz
"""

import bisect
import sys
from collections import deque


class FcfsScheduler:
    def on_simulation_begins(self):
        self.free = list(range(self.bs.nb_resources))  # ascending
        self.down = set()
        self.queue = deque()

    def on_job_submission(self, job):
        if job.requested_resources > self.bs.nb_resources:
            self.bs.reject(job)  # it would never fit
        else:
            self.queue.append(job)

    def on_job_completion(self, job):
        self.release(job.allocation)

    def on_job_killed(self, jobs):
        for job in jobs:
            self.release(job.allocation or [])

    def on_machine_unavailable(self, machines):
        self.down.update(machines)
        self.free = [m for m in self.free if m not in self.down]

    def on_machine_available(self, machines):
        # A failure stops the job on the machine: it comes back idle.
        self.down.difference_update(machines)
        self.release(machines)

    def release(self, machines):
        for m in machines:
            if m not in self.down:
                bisect.insort(self.free, m)

    def on_no_more_events(self):
        # Once per instant: every completion and submission of it is known.
        while self.queue and self.queue[0].requested_resources <= len(self.free):
            job = self.queue.popleft()
            n = job.requested_resources
            self.bs.execute(job, self.free[:n])
            del self.free[:n]


if __name__ == "__main__":
    import time

    import slasim

    trace = sys.argv[1] if len(sys.argv) > 1 else "KTH-SP2-1996-2.1-cln.swf.gz"
    clock = time.perf_counter()
    jobs = slasim.run(trace, scheduler=FcfsScheduler(), lenient=True)
    seconds = time.perf_counter() - clock
    builtin = slasim.run(trace, "fcfs", lenient=True)
    same = (jobs["actual_start"] == builtin["actual_start"]).sum()
    print(f"{jobs.height} jobs in {seconds:.2f} s; {same} start when the built-in fcfs starts them")
