"""First come, first served on pybatsim's BatsimScheduler API.

Jobs start in submission order; the first job that does not fit blocks the
queue (no backfilling). A job takes the lowest-numbered free machines, in any
order: no contiguity is asked for. A job wider than the machine can never run
and is rejected. Machines that slasim's failure stream takes down (Batsim's
``event_machine_unavailable``) are not used until they come back.

Run it with pybatsim's launcher, listening where slasim will connect::

    pybatsim examples/batsim/fcfs.py -s tcp://127.0.0.1:28000 -v warning
"""

from collections import deque

from batsim.batsim import BatsimScheduler
from procset import ProcSet


class Fcfs(BatsimScheduler):
    def onSimulationBegins(self):
        machines = self.bs.nb_compute_resources
        self.free = ProcSet((0, machines - 1)) if machines > 0 else ProcSet()
        self.down = ProcSet()
        self.queue = deque()

    def onJobSubmission(self, job):
        if job.requested_resources > self.bs.nb_compute_resources:
            self.bs.reject_jobs([job])
        else:
            self.queue.append(job)

    def onJobCompletion(self, job):
        self.free |= job.allocation - self.down

    def onJobsKilled(self, jobs):
        for job in jobs:
            self.free |= job.allocation - self.down

    def onNotifyEventMachineUnavailable(self, machines):
        self.down |= machines
        self.free -= machines

    def onNotifyEventMachineAvailable(self, machines):
        # A failure stops the job on the machine: it comes back idle.
        self.down -= machines
        self.free |= machines

    def onRequestedCall(self):
        pass

    def onNoMoreEvents(self):
        # Once per message: every completion and submission of the instant is known.
        started = []
        while self.queue and self.queue[0].requested_resources <= len(self.free):
            job = self.queue.popleft()
            job.allocation = ProcSet(*self.free[: job.requested_resources])
            self.free -= job.allocation
            started.append(job)
        if started:
            self.bs.execute_jobs(started)
