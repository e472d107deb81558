# The workload of tests/slurm/cluster.sh: a deterministic plan of short jobs
# for its 6-node cluster, written as TSV on stdout (one header line, then one
# job a line, in submission order).
#
#   awk -v seed=20240601 -v jobs=160 -v span=420 -f tests/slurm/plan-workload.awk
#
# The random numbers come from MINSTD (x = 48271 x mod 2^31-1), computed
# exactly in any awk's doubles, so the plan is the same with mawk, gawk or
# busybox awk on every machine: same seed, same plan.
#
# Columns:
#   name       the job name (-J), j001, j002, ... in submission order
#   offset     seconds after the start of the submissions, strictly increasing
#   user       nobody, daemon, bin or sys
#   account    physics (nobody, daemon) or biology (daemon, bin, sys)
#   partition  cpu (nodes cpu[1-4]: 4 CPUs, 8000 MB each) or
#              gpu (nodes gpu[1-2]: 4 CPUs, 16000 MB, 2 GPUs each)
#   nodes      1, or 2 for some cpu jobs (-N)
#   cpus       CPUs per node (--ntasks-per-node), 1 to 4
#   mem        MB per node (--mem)
#   gpus       GPUs per node (--gres=gpu:N, gpu partition only), else 0
#   sleep      seconds the job sleeps (5 to 60)
#   limit      time limit in minutes (--time), 1 to 5, at least sleep + 15 s
function rnd() { state = (state * 48271) % 2147483647; return state / 2147483647 }
function below(n) { return int(rnd() * n) }            # 0 .. n-1
function pick(list,    a, n) { n = split(list, a, " "); return a[below(n) + 1] }
BEGIN {
    OFS = "\t"
    if (seed == "") seed = 20240601
    if (jobs == "") jobs = 160
    if (span == "") span = 420
    state = seed % 2147483647
    if (state <= 0) state += 2147483646
    for (i = 0; i < 10; i++) rnd()

    # Arrivals: exponential-ish gaps, heavier at the start so the cluster
    # fills quickly, scaled to span seconds, distinct whole seconds.
    total = 0
    for (i = 1; i <= jobs; i++) {
        u = rnd(); if (u < 1e-9) u = 1e-9
        gap[i] = -log(u) * (i <= jobs / 4 ? 0.5 : 1)
        total += gap[i]
    }
    cum = 0; prev = -1
    for (i = 1; i <= jobs; i++) {
        cum += gap[i]
        off = int(cum * (span - 1) / total)
        if (off <= prev) off = prev + 1
        offset[i] = off; prev = off
    }

    print "name", "offset", "user", "account", "partition", "nodes", "cpus", "mem", "gpus", "sleep", "limit"
    for (i = 1; i <= jobs; i++) {
        u = rnd()
        if (u < 0.35) { user = "nobody"; account = "physics" }
        else if (u < 0.60) { user = "daemon"; account = (rnd() < 0.6 ? "physics" : "biology") }
        else if (u < 0.85) { user = "bin"; account = "biology" }
        else { user = "sys"; account = "biology" }

        u = rnd()
        cpus = (u < 0.35 ? 1 : u < 0.65 ? 2 : u < 0.80 ? 3 : 4)
        if (rnd() < 0.27) {
            partition = "gpu"; nodes = 1
            gpus = (rnd() < 0.65 ? 1 : 2)
            mem = cpus * pick("1000 2000 3000 4000")
        } else {
            partition = "cpu"; gpus = 0
            nodes = (rnd() < 0.15 ? 2 : 1)
            mem = cpus * pick("500 1000 1500 2000")
            if (nodes == 1 && cpus == 1 && rnd() < 0.3) mem = pick("5000 6000 7000") # memory-bound
        }

        sleep_s = (rnd() < 0.4 ? 5 + below(16) : 20 + below(41))
        need = int((sleep_s + 15 + 59) / 60)
        limit = need + pick("0 0 1 2 3")
        if (limit > 5) limit = 5

        printf "j%03d\t%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", i, offset[i], user, account, partition, nodes, cpus, mem, gpus, sleep_s, limit
    }
}
