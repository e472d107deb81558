"""In-process Python schedulers: the batsim strategy's checks, the same as the
ZeroMQ bridge's, on a hand-checked log; every misbehaviour is an exception
naming the decision or callback, the job and the simulated time."""

import pytest

import slasim
from slasim import SlasimError

# (submit, processors, requested time, run time) on 4 machines: job 2 is
# killed at its walltime, job 3 waits for it, job 4 is too wide, job 5 waits
# behind job 3 and is killed at its walltime.
JOBS = [(0, 2, 100, 50), (0, 2, 100, 120), (10, 3, 40, 30), (20, 5, 10, 5), (30, 1, 10, 30)]


def write_swf(path, capacity, jobs):
    lines = [f"; MaxProcs: {capacity}", f"; MaxNodes: {capacity}"]
    for i, (submit, n, requested, run) in enumerate(jobs, 1):
        lines.append(f"{i} {submit} -1 {run} {n} -1 -1 {n} {requested} -1 1 1 1 1 1 1 -1 -1")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def trace(tmp_path):
    return write_swf(tmp_path / "small.swf", 4, JOBS)


class Fcfs:
    """FCFS on the lowest free machines; the head of the queue blocks."""

    def on_simulation_begins(self):
        self.free = list(range(self.bs.nb_resources))
        self.queue = []
        self.seen = []

    def on_job_submission(self, job):
        self.seen.append(("submitted", job.id, self.bs.time()))
        if job.requested_resources > self.bs.nb_resources:
            self.bs.reject(job)
        else:
            self.queue.append(job)
        self.schedule()

    def on_job_completion(self, job):
        self.seen.append((job.job_state, job.id, self.bs.time(), list(job.allocation)))
        self.free = sorted(self.free + job.allocation)
        self.schedule()

    def on_simulation_ends(self):
        self.seen.append(("ends", self.bs.time()))

    def schedule(self):
        while self.queue and self.queue[0].requested_resources <= len(self.free):
            job = self.queue.pop(0)
            self.bs.execute(job, self.free[: job.requested_resources])
            del self.free[: job.requested_resources]


def run(trace, scheduler, **settings):
    return slasim.run(trace, scheduler=scheduler, **settings)


def starts(table):
    return table["actual_start"].to_list()


def test_fcfs_gives_the_builtin_schedule_and_the_callbacks_in_order(trace):
    scheduler = Fcfs()
    table = run(trace, scheduler)
    builtin = slasim.run(trace, "fcfs")
    assert table["strategy"].to_list() == ["batsim"] * 5
    assert starts(table) == starts(builtin)
    # Hand-checked: 1 and 2 start at 0; 3 needs 3 machines, has 2 when 1
    # ends at 50 and 4 when 2 is killed at its walltime (100); 4 is too wide;
    # 5 waits behind 3 (the head blocks), then takes the fourth machine.
    assert starts(table) == [0, 0, 100, None, 100]
    assert table["outcome"].to_list() == ["success", "success", "success", "rejected", "success"]
    assert scheduler.seen[0] == ("submitted", "w0!1", 0)
    assert ("COMPLETED_SUCCESSFULLY", "w0!1", 50, [0, 1]) in scheduler.seen
    assert ("COMPLETED_WALLTIME_REACHED", "w0!2", 100, [2, 3]) in scheduler.seen
    assert scheduler.seen[-1][0] == "ends"


def test_a_missing_callback_is_a_no_op_and_the_handle_is_set_first(trace):
    class OnlySubmissions:
        def on_job_submission(self, job):
            assert self.bs.nb_resources == 4 and self.bs.nb_compute_resources == 4
            if job.requested_resources > 4:
                self.bs.reject(job.id)  # an id works as well as the job
            else:
                self.bs.execute(job, "0-%d" % (job.requested_resources - 1) if job.requested_resources > 1 else "0")
                self.bs.kill(job)  # and stop it at once

    table = run(trace, OnlySubmissions())
    assert table["outcome"].to_list() == ["failed", "failed", "failed", "rejected", "failed"]


def error_of(trace, scheduler, tmp_path=None):
    """The run's error; nothing of the run is stored."""
    db = None if tmp_path is None else tmp_path / "failed.sqlite"
    with pytest.raises(SlasimError) as caught:
        run(trace, scheduler, db=db)
    if db is not None:
        assert slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"].to_list() == [0]
    return caught.value


def test_a_callback_that_raises_is_chained_and_named_and_nothing_is_stored(trace, tmp_path):
    class Raises:
        def on_job_submission(self, job):
            if job.id == "w0!3":
                raise ValueError("no room for you")

    e = error_of(trace, Raises(), tmp_path)
    text = str(e)
    assert "Python scheduler, at t = 10" in text, text
    assert "callback on_job_submission (job w0!3) raised ValueError: no room for you" in text, text
    assert isinstance(e.__cause__, ValueError)


def test_a_callback_returning_something_is_an_error(trace):
    class Returns:
        def on_job_submission(self, job):
            return [("execute", job.id)]

    text = str(error_of(trace, Returns()))
    assert "at t = 0" in text and "callback on_job_submission (job w0!1) returned [('execute', 'w0!1')]" in text, text


def test_a_busy_machine_is_refused_as_the_bridge_refuses_it(trace, tmp_path):
    class Greedy:
        def on_job_submission(self, job):
            self.bs.execute(job, list(range(job.requested_resources)))

    text = str(error_of(trace, Greedy(), tmp_path))
    assert "Python scheduler, at t = 0: decision EXECUTE_JOB for job w0!2 on 0-1: resource 0 is busy with job w0!1" in text, text


def test_executing_twice_a_wrong_count_and_a_missing_machine_are_refused(trace):
    class Twice:
        def on_job_submission(self, job):
            if job.id == "w0!1":
                self.bs.execute(job, [0, 1])
                self.bs.execute(job, [2, 3])

    text = str(error_of(trace, Twice()))
    assert "decision EXECUTE_JOB for job w0!1 on 2-3: it has been running since t = 0" in text, text

    class Wrong:
        def on_job_submission(self, job):
            self.bs.execute(job, [0])

    text = str(error_of(trace, Wrong()))
    assert "decision EXECUTE_JOB for job w0!1 on 0: 1 resources allocated, the job requests 2" in text, text

    class Outside:
        def on_job_submission(self, job):
            self.bs.execute(job, [3, 4])

    text = str(error_of(trace, Outside()))
    assert "resource 4 does not exist (the machines are 0-3)" in text, text


def test_unreadable_decisions_raise_in_the_callback(trace):
    class Duplicates:
        def on_job_submission(self, job):
            self.bs.execute(job, [1, 1])

    e = error_of(trace, Duplicates())
    assert "callback on_job_submission (job w0!1) raised" in str(e)
    assert "decision EXECUTE_JOB for job w0!1 at t = 0: a resource appears twice in [1, 1]" in str(e), str(e)
    assert isinstance(e.__cause__, SlasimError)

    class NotAJob:
        def on_job_submission(self, job):
            self.bs.reject(42)

    e = error_of(trace, NotAJob())
    assert isinstance(e.__cause__, TypeError) and "a job is a slasim Job or its id" in str(e), str(e)

    class Unknown:
        def on_job_submission(self, job):
            self.bs.reject("w0!99")

    assert "decision REJECT_JOB for job w0!99: job `w0!99` is not a job of this workload" in str(
        error_of(trace, Unknown())
    )


def test_a_call_in_the_past_is_refused(trace):
    class Past:
        def on_job_submission(self, job):
            self.bs.call_me_later(self.bs.time() - 5)

    text = str(error_of(trace, Past()))
    assert "at t = 0: decision CALL_ME_LATER at -5: before now = 0" in text, text


def test_calls_come_back_and_fractional_times_round_up(trace):
    class Later:
        calls = []

        def on_simulation_begins(self):
            self.bs.call_me_later(7.2)

        def on_requested_call(self):
            self.calls.append(self.bs.time())

        def on_job_submission(self, job):
            self.bs.reject(job)

    scheduler = Later()
    run(trace, scheduler)
    assert scheduler.calls == [8]


def test_jobs_left_waiting_forever_are_an_error(trace):
    class Idle:
        pass

    text = str(error_of(trace, Idle()))
    assert "at t = 30: the scheduler leaves 5 submitted jobs waiting (first: w0!1)" in text, text
    assert "it would never be called again" in text


def test_the_scheduler_is_named_in_the_runs_identity(trace, tmp_path):
    db = tmp_path / "named.sqlite"
    run(trace, Fcfs(), db=db)
    run(trace, Fcfs(), db=db, scheduler_name="fcfs, second version")
    names = slasim.Store(db).query("SELECT config FROM runs ORDER BY config")["config"].to_list()
    assert len(names) == 2
    assert 'name = "fcfs, second version"' in names[0] + names[1]
    assert 'name = "python:test_scheduler.Fcfs"' in names[0] + names[1]
    with pytest.raises(SlasimError, match="needs a name"):
        run(trace, Fcfs(), scheduler_name="")
    with pytest.raises(SlasimError, match="runs the batsim strategy"):
        slasim.run(trace, "fcfs", scheduler=Fcfs())


def test_ctrl_c_in_a_callback_stops_the_run(trace, tmp_path):
    import os
    import signal
    import time

    class Interrupted(Fcfs):
        def on_job_submission(self, job):
            if job.id == "w0!1":
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.3)  # Python raises KeyboardInterrupt here
            super().on_job_submission(job)

    scheduler = Interrupted()
    db = tmp_path / "interrupted.sqlite"
    with pytest.raises(KeyboardInterrupt):
        run(trace, scheduler, db=db)
    # It stopped in that callback: the run never reached its end.
    assert all(event[0] != "ends" for event in scheduler.seen)
    assert slasim.Store(db).query("SELECT count(*) AS n FROM runs")["n"].to_list() == [0]


def test_callbacks_are_plain_calls_on_the_calling_thread(trace):
    import threading

    class Where(Fcfs):
        def on_job_submission(self, job):
            self.threads.add(threading.get_ident())
            super().on_job_submission(job)

    scheduler = Where()
    scheduler.threads = set()
    run(trace, scheduler)
    assert scheduler.threads == {threading.get_ident()}
    # Several runs share the one scheduler on this thread: one at a time.
    with pytest.raises(SlasimError, match="one run at a time"):
        run(trace, Fcfs(), jobs=2)
