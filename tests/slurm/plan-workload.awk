# The workload of tests/slurm/cluster.sh: a deterministic plan of short jobs
# for its 6-node cluster, written as TSV on stdout (one header line, then one
# job a line, in submission order).
#
#   awk -v seed=20240601 -v jobs=150 -v span=540 -v grid=20 -f tests/slurm/plan-workload.awk
#
# Every event is on a time grid of `grid` seconds (G), so that Slurm's own
# scheduling jitter (batch_sched_delay, the backfill interval, its 1-s
# background loop: starts 0 to ~5 s after the event that allowed them) cannot
# reorder events, and two runs of the plan take the same decisions:
#   - jobs are submitted only at multiples of G (0 .. span), several at one
#     grid point (in plan order, one sbatch right after the other);
#   - a job runs `sleep` = G*k - 10 s (k = 1..4) counted from the grid point
#     nearest to its start (cluster.sh's job script sleeps until then), so
#     every job ends exactly 10 s before a grid point, whenever it started,
#     and a job started by such an end (0-5 s later) starts near a grid point
#     too: no drift along chains of jobs.
#
# The random numbers come from MINSTD (x = 48271 x mod 2^31-1), computed
# exactly in any awk's doubles, so the plan is the same with mawk, gawk or
# busybox awk on every machine: same seed, same plan.
#
# Columns:
#   name       the job name (-J), j001, j002, ... in submission order
#   offset     seconds after the start of the submissions, a multiple of G,
#              non-decreasing
#   user       nobody, daemon, bin or sys
#   account    physics (nobody, daemon) or biology (daemon, bin, sys)
#   partition  cpu (nodes cpu[1-4]: 4 CPUs, 8000 MB each) or
#              gpu (nodes gpu[1-2]: 4 CPUs, 16000 MB, 2 GPUs each)
#   nodes      1, or 2 for some cpu jobs (-N)
#   cpus       CPUs per node (--ntasks-per-node), 1 to 4
#   mem        MB per node (--mem)
#   gpus       GPUs per node (--gres=gpu:N, gpu partition only), else 0
#   sleep      G*k - 10 s, k = 1..4: the job ends this long after the grid
#              point nearest to its start
#   limit      time limit in whole minutes (--time), 2 to 5, at least
#              G*k + 60 s (the longest the job can run, plus a minute)
#
# With -v loaded=1 (cluster.sh --load: 8 cpu nodes, 4 gpu nodes, a partition
# scav over all twelve; at most 36 submissions a grid point), four more
# columns, drawn after the others (so without loaded=1 the plan is unchanged):
#   qos          normal, high (8 % of the others) or scav (a quarter of the
#                one-node cpu jobs move to partition scav, with QOS scav)
#   reservation  "window" (half the 1-CPU-node cpu jobs of account biology
#                submitted from 2 G before the reservation's start, offset
#                resv_from = 5 G, to 4 G after it (it lasts 10 minutes); 1 grid of sleep, limit 2
#                min) or "-"
#   dependency   afterok:jNNN, afterany:jNNN (one of the 10 jobs before),
#                singleton (the job is named single_USER), or "-"; never
#                with a reservation (a job still waiting for its dependency
#                when the reservation ends would be held for ever)
#   array        0-7%2 for jobs 40 and 160 (8 tasks, at most 2 running:
#                one CPU, 1000 MB, 1 grid of sleep each), or "-"
function rnd() { state = (state * 48271) % 2147483647; return state / 2147483647 }
function below(n) { return int(rnd() * n) }            # 0 .. n-1
function pick(list,    a, n) { n = split(list, a, " "); return a[below(n) + 1] }
BEGIN {
    OFS = "\t"
    if (seed == "") seed = 20240601
    if (jobs == "") jobs = 150
    if (span == "") span = 540
    if (grid == "") grid = 20
    if (cap == "") cap = (loaded ? 36 : 6)         # at most this many submissions at one grid point
    state = seed % 2147483647
    if (state <= 0) state += 2147483646
    for (i = 0; i < 10; i++) rnd()

    # Arrivals: each job at a grid point drawn with weights 1.4 for the first
    # three points (the cluster fills quickly) and 1 after; at most `cap` a
    # point (the excess moves to the next one).
    points = int(span / grid) + 1
    if (points * cap < jobs) { print "plan-workload.awk: " jobs " jobs do not fit " points " grid points of " cap > "/dev/stderr"; exit 1 }
    wsum = 0
    for (p = 0; p < points; p++) { w[p] = (p < 3 ? 1.4 : 1); wsum += w[p] }
    for (p = 0; p < points; p++) count[p] = 0
    for (i = 1; i <= jobs; i++) {
        u = rnd() * wsum; acc = 0
        for (p = 0; p < points - 1; p++) { acc += w[p]; if (u < acc) break }
        count[p]++
    }
    for (p = 0; p < points - 1; p++)
        if (count[p] > cap) { count[p + 1] += count[p] - cap; count[p] = cap }
    for (p = 0; count[points - 1] > cap; p++)
        if (count[p] < cap) { count[p]++; count[points - 1]-- }
    n = 0
    for (p = 0; p < points; p++) for (c = 0; c < count[p]; c++) offset[++n] = p * grid

    if (loaded) print "name", "offset", "user", "account", "partition", "nodes", "cpus", "mem", "gpus", "sleep", "limit", "qos", "reservation", "dependency", "array"
    else print "name", "offset", "user", "account", "partition", "nodes", "cpus", "mem", "gpus", "sleep", "limit"
    resv_from = 5 * grid
    for (i = 1; i <= jobs; i++) {
        u = rnd()
        if (u < 0.35) { user = "nobody"; account = "physics" }
        else if (u < 0.60) { user = "daemon"; account = (rnd() < 0.6 ? "physics" : "biology") }
        else if (u < 0.85) { user = "bin"; account = "biology" }
        else { user = "sys"; account = "biology" }

        u = rnd()
        cpus = (u < 0.50 ? 1 : u < 0.78 ? 2 : u < 0.90 ? 3 : 4)
        if (rnd() < 0.23) {
            partition = "gpu"; nodes = 1
            gpus = (rnd() < 0.70 ? 1 : 2)
            mem = cpus * pick("1000 2000 3000 4000")
        } else {
            partition = "cpu"; gpus = 0
            nodes = (rnd() < 0.10 ? 2 : 1)
            mem = cpus * pick("500 1000 1500 2000")
            if (nodes == 1 && cpus == 1 && rnd() < 0.3) mem = pick("5000 6000 7000") # memory-bound
        }

        u = rnd()
        k = (u < 0.70 ? 1 : u < 0.90 ? 2 : u < 0.97 ? 3 : 4)
        sleep_s = grid * k - 10
        need = int((grid * k + 60 + 59) / 60)
        limit = need + pick("0 0 1 2")
        if (limit > 5) limit = 5

        if (!loaded) {
            printf "j%03d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", i, offset[i], user, account, partition, nodes, cpus, mem, gpus, sleep_s, limit
            continue
        }
        qos = "normal"; resv = "-"; dep = "-"; array = "-"
        if (i == 40 || i == 160) {
            partition = "cpu"; nodes = 1; cpus = 1; mem = 1000; gpus = 0; sleep_s = grid - 10; limit = 2; array = "0-7%2"
        } else {
            if (partition == "cpu" && nodes == 1 && rnd() < 0.25) partition = qos = "scav"
            else if (rnd() < 0.08) qos = "high"
            if (partition == "cpu" && nodes == 1 && cpus == 1 && account == "biology" && offset[i] >= resv_from - 2 * grid &&
                offset[i] <= resv_from + 4 * grid && rnd() < 0.5) {
                resv = "window"; sleep_s = grid - 10; limit = 2
            }
            if (i > 10 && resv == "-") {
                u = rnd()
                if (u < 0.07) dep = sprintf("afterok:j%03d", i - 1 - below(10))
                else if (u < 0.12) dep = sprintf("afterany:j%03d", i - 1 - below(10))
                else if (u < 0.15) dep = "singleton"
            }
        }
        printf "j%03d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", i, offset[i], user, account, partition, nodes, cpus, mem, gpus, sleep_s, limit, qos, resv, dep, array
    }
}
