#!/usr/bin/env bash
# A real multi-node Slurm test cluster and a scripted workload, whose
# accounting a simulator then replays.
#
# The cluster (Debian's slurm-wlm, slurmdbd, munge, MariaDB), as root, with
# config, key, sockets, database, state and logs in one temporary directory:
#   - munged, MariaDB, slurmdbd and slurmctld in a private network namespace
#     (unshare --net) that holds a bridge, br0, at 10.77.0.1/24, and lo;
#   - six slurmd, each in a network namespace of its own (unshare --net, one
#     per daemon) whose only interfaces are lo and eth0, one end of a veth pair
#     whose other end is a port of br0: cpu1-cpu4 at 10.77.0.11-14 (4 CPUs,
#     8000 MB) and gpu1-gpu2 at 10.77.0.21-22 (4 CPUs, 16000 MB, 2 GPUs that
#     exist only in gres.conf). The counts are fake (SlurmdParameters=
#     config_overrides); the jobs only sleep.
#   Nothing leaves these namespaces: they die with the processes that hold them.
#   - partitions cpu (default; PriorityJobFactor=1) and gpu (PriorityJobFactor=2);
#     accounts physics and biology (Fairshare=1 each, Slurm's default); users
#     nobody and daemon in physics, daemon, bin and sys in biology, and no
#     other user association (root's, which sacctmgr makes with the cluster,
#     is deleted; OUT/assoc.txt); associations enforced; multifactor priority
#     (age, fair share, job size, partition) and backfilling. slurmctld's
#     start (BOOT_TIME, Unix seconds) goes to OUT/controller-start.txt.
#
#   1. A deterministic plan of short jobs (tests/slurm/plan-workload.awk, seed
#      fixed; 150 jobs over 540 s unless told otherwise) is written to
#      OUT/plan.tsv. Every event is on a grid of G = 20 s (--grid), so that
#      Slurm's scheduling jitter (0-5 s from an event to the starts it allows)
#      cannot reorder events and two runs take the same decisions: jobs
#      become eligible only at multiples of G from the start (OUT/sub0.txt;
#      several at one grid point, submitted with sbatch as their users, in
#      plan order, one right after the other, 6 s before it with --begin at
#      it; one `scontrol update` of a job at the grid point asks for the
#      scheduling pass; Slurm's Eligible time is the planned second),
#      named after their plan lines (j001, j002, ...); each job sleeps until
#      G*k - 10 s (k = 1..4) after the grid point nearest to its start, so it
#      ends 10 s before a grid point however late it started, and the jobs
#      its end lets start start near a grid point too (--fixed-sleep: sleep
#      exactly G*k - 10 s instead, and let the phases drift). The start of the
#      submissions is put at a fixed phase of slurmctld's PriorityCalcPeriod
#      (every minute from the start of priority/multifactor's decay thread,
#      dated by its first log line, about 2 s after BOOT_TIME), so that fair
#      share usage and priorities are recalculated 7 s after a grid point in
#      every run, when nothing happens. 1 to 4 CPUs per node, some on 2 nodes, memory
#      requests, some with 1 or 2 GPUs; time limits 2 to 5 minutes, at least a
#      minute more than the job can run. Enough load that queues form and
#      backfilling matters. sprio, squeue and sshare are sampled every grid
#      point, 12 s after it (OUT/snapshots.txt).
#   2. Once every job has ended (at most 20 minutes after the first
#      submission): the accounting, with SLURM_TIME_FORMAT=%s,
#        sacct --allusers --parsable2 --format=<list below> -S <start>  > OUT/dump.sacct
#      plus each job's scheduling flags and priority (OUT/sched.sacct:
#      SchedSubmit, SchedMain or SchedBackfill), `sshare -a -l -P`
#      (OUT/sshare.txt), the associations and Slurm's own view of its
#      configuration (OUT/sacctmgr-assoc.txt, OUT/scontrol-config.txt).
#      Checked: every planned job is there once, COMPLETED, with its user,
#      account, partition, nodes, CPUs and GPUs; GPU jobs ran on gpu nodes;
#      the jobs ran on at least 4 distinct nodes; submitted on time; each
#      ended on its grid (10 s before a grid point, within 2 s).
#   2b. The sharded sweep across the nodes (tests/slurm/sweep.sh, as in
#      run.sh): root gets a user association in a new account, sweeps (only
#      now, after the dump); `slasim sweep configs/quick.toml --emit-slurm 4
#      --partition cpu --account sweeps --cpus-per-task 4` (a whole node per
#      task) is submitted; the 4 array tasks and the merge job task 1 submits
#      from its node must end COMPLETED, the tasks on at least 2 distinct
#      nodes, and the merged store must equal a local sweep of the config
#      (OUT/sweep/: the script and the jobs' logs).
#   3. The cluster stopped: if $SLASIM (default target/release/slasim) exists
#      and has `slurm compare`, `slasim slurm compare --slurm-conf
#      OUT/slurm.conf OUT/dump.sacct --out OUT/compare.csv` runs, its output
#      kept in OUT/compare.txt; its exit status is reported, and decides the
#      test's only with --require-match. Otherwise that step says SKIPPED.
#
# Usage: tests/slurm/cluster.sh [--out DIR]   (as root; about 13 minutes)
#          --out DIR keeps slurm.conf, gres.conf, plan.tsv, dump.sacct, ...,
#          and the daemons' logs (DIR/logs/) in DIR; without it they go to a
#          temporary directory that is removed.
#          --jobs N --span S --grid G (default 150, 540 and 20): a plan of N
#          jobs submitted over S seconds on a grid of G seconds.
#          --seed N|random (default 20240601): the plan's seed; random draws
#          one and prints it (--load-runs gives its four runs the same one).
#          --fixed-sleep: each job sleeps its planned seconds, not until its grid.
#          --require-match: fail when `slasim slurm compare` exits non-zero.
#          --repeat: run it all twice, into DIR and DIR2 (--out DIR needed),
#          and compare the two runs' starts job by job (DIR/repeat-compare.txt).
#        tests/slurm/cluster.sh --compare-runs DIR1 DIR2   (only that comparison:
#          jobs matched by name; starts relative to each run's first
#          submission; within 5 s; in the same order, as slasim counts it)
#        tests/slurm/cluster.sh --install   (installs the packages, exit 0 when it can run)
#
# The loaded cluster, --load (issue 61's check under load; reports, nothing
# required yet): twelve nodes, cpu1-cpu8 (4 CPUs, 8000 MB) and gpu1-gpu4 (4
# CPUs, 16000 MB, 2 GPUs), in partitions cpu, gpu and scav (all twelve: it
# overlaps both); PreemptType=preempt/qos, PreemptMode=REQUEUE; QOS normal
# (priority 10, MaxJobsPU=6), high (100, preempts normal and scav) and scav
# (0, GrpTRES=cpu=12), PriorityWeightQOS=2000,
# AccountingStorageEnforce=associations,limits,qos; a reservation "window"
# on cpu7 and cpu8 for account biology from 5 grid points after the first
# submission, for 10 minutes. The plan (plan-workload.awk with loaded=1; 300
# jobs over 180 s by default) adds QOS, jobs naming the reservation,
# afterok, afterany and singleton dependencies and two arrays of 8 tasks
# throttled to 2 (0-7%2). Step 2 then also keeps OUT/dump-duplicates.sacct
# (every run of a requeued job), OUT/submit.sacct (JobID|JobName|Dependency|
# SubmitLine, as submitted), OUT/sacctmgr-qos.txt, the associations with
# their limits and OUT/reservations.txt; the dump has Reservation,
# Constraints and SubmitLine; no sweep (2b). cpu3 is drained 2 grid points
# and 15 s after the first submission and resumed 5 grid points later
# (OUT/drain.txt), and the node events are dumped (`sacctmgr -P show event`,
# OUT/sacctmgr-event.txt) for the replay. Each snapshot also holds the
# pending and running jobs as a forecast reads them (squeue -t PD,R with
# Unix times, Slurm's start estimate among them).
#        tests/slurm/cluster.sh --load-runs DIR   (about 13 minutes): four
#          loaded runs at once, each a cluster in network namespaces of its
#          own: DIR/aligned and DIR/aligned-again on the grid, DIR/natural
#          and DIR/natural-again with --fixed-sleep; then Slurm against
#          itself per timing (DIR/noise-floor.txt of the two aligned runs,
#          DIR/noise-floor-natural.txt of the two natural ones: `slasim
#          slurm compare --reference` of their --duplicates dumps), then the
#          twin on each run (DIR/*/check.txt), held to the floor of its
#          timing. Fails when a run fails, or when on a run the twin's share
#          of job pairs in the logged order is more than 10 points below
#          Slurm's own, or more jobs than Slurm's own difference plus 15 are
#          preempted in one of the twin and Slurm only.
#          Each run's snapshots are then forecast (`slasim slurm forecast
#          --kept DIR/RUN`: every pending job of each snapshot, and Slurm's
#          own estimate, against the start that happened; DIR/RUN/forecast.txt).
#          Then `slasim slurm fidelity DIR` prints every comparison in one
#          table with the per-job measures (DIR/fidelity.txt).
#        tests/slurm/cluster.sh --check-load-runs DIR   (seconds, no root):
#          only the comparisons of --load-runs, on its kept DIR.
#        SLASIM_SLURM_DEBUGFLAGS=Backfill tests/slurm/cluster.sh ...: the
#          runs' slurm.conf gets DebugFlags=Backfill, so slurmctld's log
#          (OUT/logs/slurmctld.log) holds each backfill pass's planned
#          starts, ends and nodes, to compare with the twin's passes.
# Skipped (exit 0) when not root, when the packages cannot be installed with
# apt-get, or when network namespaces, veth pairs and a bridge cannot be
# made; under CI=true that is a failure (see .ci/skip.sh;
# SLASIM_CI_UNAVAILABLE=slurm-cluster makes it so). Every wait is bounded;
# the daemons it started are stopped by their PIDs and the temporary
# directory is removed on every exit.
set -eEuo pipefail
trap 'echo "slurm cluster test FAILED: line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
caller_pwd="$PWD"
cd "$(dirname "$0")/../.."
root="$PWD"
self="$root/tests/slurm/$(basename "$0")"
t0="${SLASIM_CLUSTER_T0:-$(date +%s)}"
export PATH="$PATH:/usr/sbin:/sbin"

fail() { echo "slurm cluster test FAILED: $*" >&2; exit 1; }
step() { echo; echo "== $*  [$(($(date +%s) - t0)) s]"; }
. "$root/.ci/skip.sh"

# What --require-match asks of slasim's replay, with a tolerance of Slurm's
# scheduling cycle (bf_interval, 5 s: the longest a start waits for a pass
# after the event that allows it): at least 95 % of the jobs in the logged
# start order, and at most 2 of 150 starts further than that from the logged
# one. Measured on 2026-11-25 in four runs: every job in order, every start
# within 5 s.
min_in_order=0.95 max_outside=2
pairs_margin=10 preempted_margin=15
install=0 out="" jobs="" span="" grid=20 seed=20240601 fixed_sleep=0 require_match=0 repeat=0 compare_runs=() load=0 load_runs="" check_load=0
while (($#)); do
    case "$1" in
        --install) install=1 ;;
        --grid) (($# >= 2)) || fail "--grid needs a number of seconds"; grid="$2"; shift ;;
        --fixed-sleep) fixed_sleep=1 ;;
        --load) load=1 ;;
        --require-match) require_match=1 ;;
        --repeat) repeat=1 ;;
        --load-runs) (($# >= 2)) || fail "--load-runs needs a directory"; load_runs="$2" load=1; shift ;;
        --check-load-runs) (($# >= 2)) || fail "--check-load-runs needs a directory"; load_runs="$2" load=1 check_load=1; shift ;;
        --compare-runs) (($# >= 3)) || fail "--compare-runs needs two directories"; compare_runs=("$2" "$3"); shift 2 ;;
        --out) (($# >= 2)) || fail "--out needs a directory"; out="$2"; shift ;;
        --out=*) out="${1#--out=}" ;;
        --jobs) (($# >= 2)) || fail "--jobs needs a number"; jobs="$2"; shift ;;
        --seed) (($# >= 2)) || fail "--seed needs a number or random"; seed="$2"; shift ;;
        --span) (($# >= 2)) || fail "--span needs a number of seconds"; span="$2"; shift ;;
        -h | --help) sed -n '2,/^set -eEuo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument '$1' (usage: tests/slurm/cluster.sh [--install] [--out DIR] [--jobs N --span S --grid G] [--seed N|random] [--fixed-sleep] [--load] [--require-match] [--repeat] | --compare-runs DIR1 DIR2)" ;;
    esac
    shift
done
# The loaded cluster (--load) has its own defaults: 300 jobs over 180 s.
if ((load)); then jobs="${jobs:-300}" span="${span:-180}"; else jobs="${jobs:-150}" span="${span:-540}"; fi
[[ "$jobs" =~ ^[1-9][0-9]*$ && "$jobs" -le 999 ]] || fail "--jobs must be 1 to 999"
[[ "$grid" =~ ^[1-9][0-9]*$ && "$grid" -ge 15 && $((grid % 5)) -eq 0 ]] || fail "--grid must be a multiple of 5 seconds, at least 15"
[[ "$span" =~ ^[0-9]+$ && $((span % grid)) -eq 0 ]] || fail "--span must be a multiple of --grid"
if [[ -n "$out" && "$out" != /* ]]; then out="$caller_pwd/$out"; fi
# --seed random: one seed drawn here, printed, and given to every run.
if [[ "$seed" == random ]]; then
    seed=$(((RANDOM << 15 | RANDOM) + 1))
    echo "the plan's seed, drawn: $seed (replay the plan with --seed $seed)"
fi
[[ "$seed" =~ ^[1-9][0-9]{0,17}$ ]] || fail "--seed must be a positive number or random"


# The starts of two runs' jobs, matched by name (top-level records j001 ...),
# relative to each run's first submission (DIR/sub0.txt, else the earliest
# Submit): how many within 5 s, identical, on the same nodes, and in the same
# order (as slasim slurm compare counts it: no job started more than 5 s
# before it in one run and after it in the other). The per-job table goes to
# DIR1/repeat-starts.tsv.
# twin_compare_args DIR: the arguments of `slasim slurm compare` replaying
# the run in DIR (a loaded one: its --duplicates dump, QOS, associations
# and reservation; an aligned one: the grid its jobs slept to).
twin_compare_args() {
    local d="$1"
    if [[ -f "$d/backfill-start.txt" ]]; then
        printf '%s\n' --backfill-start "$(cat "$d/backfill-start.txt")"
    fi
    if [[ -f "$d/grid.txt" ]]; then
        printf '%s\n' --grid "$(cat "$d/grid.txt")"
    fi
    if [[ -f "$d/dump-duplicates.sacct" ]]; then
        printf '%s\n' --slurm-conf "$d/slurm.conf" "$d/dump-duplicates.sacct" --controller-start "$(cat "$d/decay-start.txt")" \
            --qos "$d/sacctmgr-qos.txt" --assoc "$d/sacctmgr-assoc.txt" --reservations "$d/reservations.txt"
        if [[ -f "$d/sacctmgr-event.txt" ]]; then printf '%s\n' --node-events "$d/sacctmgr-event.txt"; fi
    else
        printf '%s\n' --slurm-conf "$d/slurm.conf" "$d/dump.sacct" --controller-start "$(cat "$d/decay-start.txt")"
    fi
}

# unseen_order DIR LOG: what a replay at whole seconds cannot see, printed
# when it failed --require-match. The dump stamps every end to the second,
# and the replay ends all of a second's jobs before that second's scheduling;
# slurmctld takes them one by one, and a scheduling pass may come between two
# (on the aligned grid, jobs end together). LOG's completions logged after a
# start in their second are listed, with the first job the replay placed
# elsewhere than Slurm (DIR/compare.csv's first_node_logged), from which
# later starts can move.
unseen_order() {
    local d="$1" log="$2"
    echo "what the dump's whole seconds do not show (slurmctld's log, $log):"
    if [[ -f "$log" ]]; then
        # The replayed jobs only (DIR/compare.csv's), not the sweep's.
        awk -F'[][]' '
            FILENAME != logfile { if (FNR > 1) { split($0, f, ","); replayed["JobId=" f[1]] = 1 }; next }
            /sched: Allocate JobId=|_start_job: Started JobId=|_job_complete: JobId=[0-9]+ done/ {
                split($2, t, "T"); split(t[2], c, "."); sec = c[1]; frac = c[2]
                match($3, /JobId=[0-9]+/)
                if (length(replayed) && !(substr($3, RSTART, RLENGTH) in replayed)) next
                if ($3 ~ /_job_complete/) {
                    if ((sec in first) && frac > first[sec]) {
                        n++; printf "  %s completed at %s, after %s in its second\n", substr($3, RSTART, RLENGTH), $2, what[sec]
                    }
                } else if (!(sec in first)) {
                    first[sec] = frac; what[sec] = "the start of " substr($3, RSTART, RLENGTH) " at ." frac
                }
            }
            END { if (!n) print "  no completion logged after a start in its second" }' logfile="$log" \
            "$(if [[ -f "$d/compare.csv" ]]; then echo "$d/compare.csv"; else echo /dev/null; fi)" "$log"
    else
        echo "  no log"
    fi
    [[ -f "$d/compare.csv" ]] || return 0
    # The logged nodes are quoted, with commas: the fields around them are
    # the first seven and the last two.
    awk '
        NR > 1 {
            n = split($0, f, ","); list = $0
            for (i = 1; i <= 7; i++) sub(/^[^,]*,/, "", list)
            sub(/,[^,]*,[^,]*$/, "", list)
            if (f[n] == "false" && (best == "" || f[3] + 0 < at)) {
                at = f[3] + 0; best = sprintf("job %s, logged start %s on %s, simulated start %s on %s", f[1], f[3], list, f[4], f[n - 1])
            }
        }
        END { print "the first job the replay placed elsewhere: " (best == "" ? "none" : best) }' "$d/compare.csv"
}

compare_two_runs() {
    local a="$1" b="$2"
    awk -F'|' -v tol=5 '
        FNR == 1 { run++; for (i = 1; i <= NF; i++) col[run, $i] = i; next }
        function c(name) { return $col[run, name] }
        index(c("JobIDRaw"), ".") == 0 && c("JobName") ~ /^j[0-9]+$/ {
            name = c("JobName"); st[run, name] = c("Start"); nl[run, name] = c("NodeList")
            if (!(run in zero) || c("Submit") < zero[run]) zero[run] = c("Submit")
            if (run == 1) names[++n] = name
        }
        END {
            if (s01 != "") zero[1] = s01; if (s02 != "") zero[2] = s02
            printf "name\trun1_start\trun2_start\trun2-run1\trun1_nodes\trun2_nodes\n" > table
            for (i = 1; i <= n; i++) {
                x = names[i]
                if (!((2, x) in st)) { missing++; continue }
                m++; a[m] = st[1, x] - zero[1]; b[m] = st[2, x] - zero[2]; d[m] = b[m] - a[m]
                if (d[m] >= -tol && d[m] <= tol) within++
                if (d[m] == 0) same++
                if (nl[1, x] == nl[2, x]) nodes++
                printf "%s\t%d\t%d\t%+d\t%s\t%s\n", x, a[m], b[m], d[m], nl[1, x], nl[2, x] > table
            }
            for (i = 1; i <= m; i++) {
                bad = 0
                for (j = 1; j <= m && !bad; j++) {
                    r = a[j] - a[i]; s = b[j] - b[i]
                    if ((r > tol && s < 0) || (r < -tol && s > 0)) bad = 1
                }
                if (!bad) inorder++
                sorted[i] = d[i]
            }
            sort_n(sorted, m)
            printf "runs compared: %d jobs in both%s\n", m, missing ? sprintf(" (%d of the first run missing in the second)", missing) : ""
            printf "starts within %d s of each other: %d of %d (%.1f %%); identical: %d; same nodes: %d\n", tol, within, m, 100 * within / m, same, nodes
            printf "in the same start order (tolerance %d s): %d of %d (%.1f %%)\n", tol, inorder, m, 100 * inorder / m
            printf "run2 - run1 start (s): min %d, 5%% %d, median %d, 95%% %d, max %d\n", sorted[1], sorted[int(0.05 * (m - 1) + 1.5)], sorted[int(0.5 * (m - 1) + 1.5)], sorted[int(0.95 * (m - 1) + 1.5)], sorted[m]
        }
        function sort_n(v, k,    i, j, t) { for (i = 2; i <= k; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t } }
    ' s01="$(cat "$a/sub0.txt" 2>/dev/null || true)" s02="$(cat "$b/sub0.txt" 2>/dev/null || true)" table="$a/repeat-starts.tsv" \
        "$a/dump.sacct" "$b/dump.sacct"
}
if [[ -n "$load_runs" ]]; then
    [[ "$load_runs" == /* ]] || load_runs="$caller_pwd/$load_runs"
    mkdir -p "$load_runs"
    slasim="${SLASIM:-$root/target/release/slasim}"
    if [[ -z "${SLASIM:-}" && ! -x "$slasim" ]]; then cargo build --release --locked; fi
    status=0 runs=(aligned aligned-again natural natural-again) run_pids=()
    ((check_load)) && runs_to_start=() || runs_to_start=("${runs[@]}")
    for run in "${runs_to_start[@]}"; do
        more=(--load --out "$load_runs/$run" --grid "$grid" --seed "$seed")
        [[ -z "$jobs" ]] || more+=(--jobs "$jobs")
        [[ -z "$span" ]] || more+=(--span "$span")
        [[ "$run" != natural* ]] || more+=(--fixed-sleep)
        echo "=== loaded run $run: tests/slurm/cluster.sh ${more[*]} (log: $load_runs/$run.log)"
        SLASIM="$slasim" bash "$self" "${more[@]}" >"$load_runs/$run.log" 2>&1 &
        run_pids+=($!)
        sleep 2
    done
    for i in "${!runs_to_start[@]}"; do
        s=0
        wait "${run_pids[i]}" || s=$?
        echo "=== loaded run ${runs[i]} exited $s; its last lines:"
        tail -n 12 "$load_runs/${runs[i]}.log"
        ((s == 0)) || status=1
    done
    # Slurm against itself, per timing: the noise floor of the runs of that
    # timing (FLOOR_PAIRS and FLOOR_DIFFER, keyed by the timing).
    declare -A floor_pairs=() floor_differ=()
    for timing in aligned natural; do
        a="$load_runs/$timing" b="$load_runs/$timing-again"
        floor="$load_runs/noise-floor.txt"
        [[ "$timing" == aligned ]] || floor="$load_runs/noise-floor-$timing.txt"
        if [[ -f "$a/dump-duplicates.sacct" && -f "$b/dump-duplicates.sacct" ]]; then
            echo; echo "=== Slurm against itself (the noise floor, $timing timing): $a against $b"
            noise=(--slurm-conf "$a/slurm.conf" "$a/dump-duplicates.sacct" --reference "$b/dump-duplicates.sacct" --min-in-order 0)
            echo "$slasim slurm compare ${noise[*]}"
            "$slasim" slurm compare "${noise[@]}" | tee "$floor" || status=1
        fi
        floor_pairs[$timing]="$(sed -n 's/^pairs in the logged order: [0-9]* of [0-9]* (\([0-9.]*\) %.*/\1/p' "$floor" 2>/dev/null)"
        floor_differ[$timing]="$(sed -n 's/^preempted: .*, \([0-9]*\) in one only;.*/\1/p' "$floor" 2>/dev/null)"
        [[ -n "${floor_pairs[$timing]}" && -n "${floor_differ[$timing]}" ]] || fail "no noise floor in $floor"
    done
    # The twin is held to Slurm's own agreement under the same timing: its
    # pairs in the logged order at most $pairs_margin points below Slurm
    # against itself, and at most $preempted_margin more jobs preempted in
    # one run only.
    for run in "${runs[@]}"; do
        d="$load_runs/$run"
        [[ -f "$d/dump-duplicates.sacct" ]] || { status=1; continue; }
        timing="${run%-again}"
        min_pairs="$(awk -v f="${floor_pairs[$timing]}" -v m="$pairs_margin" 'BEGIN { printf "%.4f", (f - m) / 100 }')"
        max_differ=$((floor_differ[$timing] + preempted_margin))
        mapfile -t replay < <(twin_compare_args "$d")
        check=("${replay[@]}" --min-in-order 0 --min-pairs-in-order "$min_pairs" --max-preempted-difference "$max_differ")
        echo; echo "=== the twin against Slurm, run $run ($d/check.txt; $timing floor: ${floor_pairs[$timing]} % of pairs, ${floor_differ[$timing]} preempted in one run only)"
        echo "$slasim slurm compare ${check[*]}"
        s=0
        "$slasim" slurm compare "${check[@]}" >"$d/check.txt" 2>&1 || s=$?
        cat "$d/check.txt"
        if ((s != 0)); then
            echo "the twin is outside the noise floor's band on run $run (pairs in order below $min_pairs, or more than $max_differ jobs preempted in one run only)"
            status=1
        fi
        # Every pending job of every snapshot forecast, and Slurm's own
        # estimate, against the start that happened.
        echo; echo "=== start-time forecasts, run $run ($d/forecast.txt): $slasim slurm forecast --kept $d"
        "$slasim" slurm forecast --kept "$d" | tee "$d/forecast.txt" || status=1
    done
    # Every comparison in one table, with the per-job measures (DIR/fidelity.txt),
    # also when a run is outside the band (it shows by how much).
    echo; echo "=== per job: $slasim slurm fidelity $load_runs"
    "$slasim" slurm fidelity "$load_runs" | tee "$load_runs/fidelity.txt" || status=1
    ((status == 0)) || fail "a loaded run failed, or the twin is outside the noise floor's band (see $load_runs/*.log, $load_runs/*/check.txt)"
    echo; echo "loaded runs passed in $(($(date +%s) - t0)) s"
    exit 0
fi
if ((${#compare_runs[@]})); then
    for d in "${compare_runs[@]}"; do [[ -f "$d/dump.sacct" ]] || fail "no $d/dump.sacct"; done
    compare_two_runs "${compare_runs[@]}"
    exit 0
fi
if ((repeat)); then
    [[ -n "$out" ]] || fail "--repeat needs --out DIR (the second run goes to DIR2)"
    out2="${out%/}2"
    more=(--jobs "$jobs" --span "$span" --grid "$grid" --seed "$seed")
    ((fixed_sleep)) && more+=(--fixed-sleep)
    ((load)) && more+=(--load)
    ((require_match)) && more+=(--require-match)
    status1=0 status2=0
    echo "=== run 1 of 2, into $out"
    bash "$self" --out "$out" "${more[@]}" || status1=$?
    echo; echo "=== run 2 of 2, into $out2"
    bash "$self" --out "$out2" "${more[@]}" || status2=$?
    echo; echo "=== Slurm against itself: $out against $out2"
    if [[ -f "$out/dump.sacct" && -f "$out2/dump.sacct" ]]; then
        compare_two_runs "$out" "$out2" | tee "$out/repeat-compare.txt"
        cp "$out/repeat-compare.txt" "$out2/repeat-compare.txt"
    fi
    echo "run 1 exited $status1, run 2 exited $status2"
    ((status1 == 0 && status2 == 0)) || exit 1
    exit 0
fi

have() { local path; path="$(command -v "$1")" && [[ -x "$path" ]]; }
tools=(slurmctld slurmd slurmdbd sbatch squeue scancel scontrol sacct sacctmgr sinfo sshare sprio munged mariadbd
    mariadb-install-db mariadb runuser unshare ip awk)
packages="slurm-wlm slurmdbd munge mariadb-server iproute2"
why=""
# Root, the packages installed (with apt-get when missing), and network
# namespaces with veth pairs and a bridge to be had; else sets $why and fails.
prerequisites() {
    local out tool missing=0
    if unavailable slurm-cluster; then
        why="SLASIM_CI_UNAVAILABLE names slurm-cluster: $packages treated as not installable"; return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        why="the Slurm cluster test runs slurmd, munged and MariaDB as root and makes network namespaces; run it as root"
        return 1
    fi
    for tool in "${tools[@]}"; do have "$tool" || missing=1; done
    if ((missing)); then
        # shellcheck disable=SC2086 # the package list splits on purpose
        if ! out="$("$root/.ci/apt-install" $packages 2>&1)"; then
            why="cannot install $packages with apt-get (${out:-apt-get failed})"; return 1
        fi
    fi
    for tool in "${tools[@]}"; do
        have "$tool" || { why="cannot install $packages with apt-get ($tool is still missing)"; return 1; }
    done
    if [[ -z "${SLASIM_CLUSTER_NETNS:-}" ]] &&
        ! unshare --net -- sh -c 'ip link add b0 type bridge && ip link add v0 type veth peer name v1' 2>/dev/null; then
        why="cannot create a network namespace with a bridge and a veth pair (unshare --net; ip link add)"
        return 1
    fi
}
if ((install)); then
    prerequisites || { echo "$why"; exit 1; }
    echo "slurm cluster test: $(slurmctld -V), slurmdbd $(dpkg-query -W -f='${Version}' slurmdbd), $(mariadbd --version | awk '{print $1, $2, $3}')"
    exit 0
fi

# ---------------------------------------------------------------- install
if [[ -z "${SLASIM_CLUSTER_NETNS:-}" ]]; then
    step "Slurm, slurmdbd, munge and MariaDB"
    prerequisites || skip_and_exit "slurm cluster test" "$why"
    # The binary the comparison replays with, built before the namespace.
    if [[ -z "${SLASIM:-}" && ! -x "$root/target/release/slasim" ]]; then cargo build --release --locked; fi
    echo "re-running in a private network namespace (unshare --net)"
    export SLASIM_CLUSTER_NETNS=1 SLASIM_CLUSTER_T0="$t0"
    more=()
    ((fixed_sleep)) && more+=(--fixed-sleep)
    ((load)) && more+=(--load)
    ((require_match)) && more+=(--require-match)
    exec unshare --net -- bash -c 'ip link set lo up && exec "$@"' bash "$self" --out "$out" --jobs "$jobs" --span "$span" \
        --grid "$grid" --seed "$seed" "${more[@]}"
fi
[[ -z "$(awk -F: 'NR > 2 { gsub(/ /, "", $1); if ($1 != "lo") print $1 }' /proc/net/dev)" ]] ||
    fail "the private network namespace has interfaces other than lo"
echo "$(slurmctld -V), $(mariadbd --version | awk '{print $1, $2, $3}')"

# ---------------------------------------------------------------- directories
tmp="$(mktemp -d)"
chmod 711 "$tmp" # munged, and the jobs of nobody and co., need every directory above the socket searchable
keep_out=1
if [[ -z "$out" ]]; then out="$tmp/out" keep_out=0; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
pids=()    # munged, MariaDB, slurmdbd, slurmctld, the slurmd: stopped in reverse order
sampler="" # the snapshot loop
drainer="" # --load: the drain and resume of cpu3
cluster_stopped=0
stop_cluster() {
    local pid i
    if [[ -n "$sampler" ]]; then
        kill "$sampler" 2>/dev/null || true
        wait "$sampler" 2>/dev/null || true
        sampler=""
    fi
    if [[ -n "$drainer" ]]; then
        kill "$drainer" 2>/dev/null || true
        wait "$drainer" 2>/dev/null || true
        drainer=""
    fi
    if [[ -n "${SLURM_CONF:-}" && -e "${SLURM_CONF:-}" ]] && ((${#pids[@]} > 4)); then
        # The jobs of this private cluster only; slurmstepd outlives slurmd otherwise.
        timeout 15 scancel --quiet --partition=cpu >/dev/null 2>&1 || true
        timeout 15 scancel --quiet --partition=gpu >/dev/null 2>&1 || true
        ((!load)) || timeout 15 scancel --quiet --partition=scav >/dev/null 2>&1 || true
        for _ in $(seq 1 20); do [[ -z "$(timeout 5 squeue -h 2>/dev/null || echo ?)" ]] && break; sleep 0.5; done
    fi
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid="${pids[i]}"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    pids=()
}
cleanup() {
    local status=$?
    stop_cluster
    if ((status != 0 && !cluster_stopped)) && [[ -d "$tmp/log" ]]; then
        echo "--- last lines of the daemon logs ($tmp/log) ---" >&2
        tail -n 8 "$tmp"/log/*.log >&2 2>/dev/null || true
        if ((keep_out)); then mkdir -p "$out/logs" && cp "$tmp"/log/* "$tmp"/slurm.conf "$tmp"/gres.conf "$out/logs/" 2>/dev/null || true; fi
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
trap 'echo "slurm cluster test interrupted" >&2; exit 130' INT TERM
mkdir -m 755 "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"
mkdir -m 700 "$tmp/key" "$tmp/db"
chmod 777 "$tmp/work"

# ---------------------------------------------------------------- network
# br0 in this namespace; one veth pair per slurmd (see start_node).
net=10.77.0
ip link add br0 type bridge forward_delay 0
ip addr add "$net.1/24" dev br0
ip link set br0 up
nodes=(cpu1 cpu2 cpu3 cpu4 gpu1 gpu2)
declare -A addr=([cpu1]=$net.11 [cpu2]=$net.12 [cpu3]=$net.13 [cpu4]=$net.14 [gpu1]=$net.21 [gpu2]=$net.22)
# --load: twelve nodes, cpu1-cpu8 at .11-.18 and gpu1-gpu4 at .21-.24.
if ((load)); then
    nodes=(cpu1 cpu2 cpu3 cpu4 cpu5 cpu6 cpu7 cpu8 gpu1 gpu2 gpu3 gpu4)
    for i in 5 6 7 8; do addr[cpu$i]=$net.1$i; done
    for i in 3 4; do addr[gpu$i]=$net.2$i; done
fi
ncpu=$(printf '%s\n' "${nodes[@]}" | grep -c '^cpu') ngpu=$(printf '%s\n' "${nodes[@]}" | grep -c '^gpu')
# Ports: the namespace is ours alone, so fixed ones.
ctld_port=6817 slurmd_port=6818 dbd_port=6819 db_port=3306

# ---------------------------------------------------------------- munged, MariaDB, slurmdbd
. "$root/tests/slurm/daemons.sh"
start_munged
start_mariadb
cluster=slasimcluster
export SLURM_CONF="$tmp/slurm.conf"
write_slurmdbd_conf

# ---------------------------------------------------------------- slurm.conf
# The scheduling part first (what a simulator replaying the accounting reads),
# then the plumbing of this private cluster (addresses, ports, paths).
{
    cat <<EOF
# slurm.conf of tests/slurm/cluster.sh$( ((load)) && echo " --load"): a private ${#nodes[@]}-node Slurm (Debian's
# slurm-wlm $(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo '?')), each slurmd in a network namespace of
# its own. CPU, memory and GPU counts are fake (config_overrides): jobs only sleep.
ClusterName=$cluster

# ---- scheduling
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,bf_resolution=5,bf_window=30,bf_max_job_test=500,default_queue_depth=100
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# A node's share of an ended job is free once its epilog completes, which
# can come after the scheduling pass the job's end starts (a race, worse on
# a loaded machine). CompleteWait > 0 holds every pass (main and backfill;
# job_is_completing()) until the ended jobs' epilogs are in, as the
# simulator assumes: an ended job's resources are free to the next pass.
CompleteWait=2
DefMemPerCPU=500
GresTypes=gpu
PriorityType=priority/multifactor
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:30
PriorityMaxAge=0-0:10
PriorityWeightAge=1000
PriorityWeightFairshare=2000
PriorityWeightJobSize=500
PriorityWeightPartition=1000
PriorityWeightQOS=$( ((load)) && echo 2000 || echo 0)
PriorityFavorSmall=NO
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageEnforce=associations$( ((load)) && echo ",limits,qos")
AccountingStorageTRES=gres/gpu
JobAcctGatherType=jobacct_gather/none
MinJobAge=86400

# ---- nodes and partitions
EOF
    for n in "${nodes[@]}"; do
        if [[ $n == gpu* ]]; then mem=16000 gres=" Gres=gpu:2"; else mem=8000 gres=""; fi
        echo "NodeName=$n NodeAddr=${addr[$n]} CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=$mem$gres State=UNKNOWN"
    done
    cat <<EOF
PartitionName=cpu Nodes=cpu[1-$ncpu] Default=YES MaxTime=10 PriorityTier=1 PriorityJobFactor=1 State=UP
PartitionName=gpu Nodes=gpu[1-$ngpu] MaxTime=10 PriorityTier=1 PriorityJobFactor=2 State=UP
EOF
    # --load: a third partition over every node, for the scav QOS, and
    # preemption by QOS (the high QOS preempts normal and scav; REQUEUE).
    ((!load)) || cat <<EOF
PartitionName=scav Nodes=cpu[1-$ncpu],gpu[1-$ngpu] MaxTime=10 PriorityTier=1 PriorityJobFactor=1 State=UP
PreemptType=preempt/qos
PreemptMode=REQUEUE
JobRequeue=1
EOF
    cat <<EOF

# ---- plumbing of this private cluster
SlurmctldHost=localhost($net.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmdParameters=config_overrides
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
AccountingStorageHost=localhost
AccountingStoragePort=$dbd_port
AccountingStoragePass=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
KillWait=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
EOF
    # SLASIM_SLURM_DEBUGFLAGS=Backfill: slurmctld logs each backfill
    # reservation (its start, end and nodes), to find where the
    # simulator's passes part from Slurm's (it slows the passes a little).
    if [[ -n "${SLASIM_SLURM_DEBUGFLAGS:-}" ]]; then echo "DebugFlags=$SLASIM_SLURM_DEBUGFLAGS"; fi
} >"$SLURM_CONF"
# Fake GPUs. slurmd 22.05 drops a GPU without a File ("Removing file-less GPU
# from final GRES list") and complains about a File that is no character
# device; so each GPU is a character device node 1:3, a clone of /dev/null.
mkdir -m 755 "$tmp/dev"
for g in 0 1; do
    mknod -m 666 "$tmp/dev/gpu$g" c 1 3 2>/dev/null || : >"$tmp/dev/gpu$g" # a plain file still counts, with an error logged
done
cat >"$tmp/gres.conf" <<EOF
NodeName=gpu[1-$ngpu] Name=gpu File=$tmp/dev/gpu[0-1]
EOF

# ---------------------------------------------------------------- slurmdbd, associations
slurmdbd -D >"$tmp/log/slurmdbd.out" 2>&1 &
pids+=($!)
registered=0
for _ in $(seq 1 60); do
    kill -0 "${pids[-1]}" 2>/dev/null || fail "slurmdbd exited at start"
    if sacctmgr -i add cluster "$cluster" >"$tmp/log/sacctmgr.out" 2>&1; then registered=1; break; fi
    sleep 0.5
done
((registered)) || fail "slurmdbd did not accept the cluster within 30 s: $(tail -n 3 "$tmp/log/sacctmgr.out")"
users=(nobody daemon bin sys)
for u in "${users[@]}"; do id "$u" >/dev/null 2>&1 || fail "no Unix user $u"; done
{
    sacctmgr -i add account physics Cluster="$cluster" Description=physics Organization=slasim Fairshare=1
    sacctmgr -i add account biology Cluster="$cluster" Description=biology Organization=slasim Fairshare=1
    if ((load)); then
        # --load: three QOS. high (priority 100) preempts normal and scav
        # (REQUEUE, the conf's PreemptMode); normal (priority 10, the
        # default) runs at most 6 jobs of a user at once (MaxJobsPU); scav
        # (priority 0) at most 12 CPUs in all (GrpTRES). The users reach them
        # through their accounts (QOS inherited; DefaultQOS normal).
        sacctmgr -i add qos high Priority=100
        sacctmgr -i add qos scav Priority=0
        sacctmgr -i modify qos where name=normal set Priority=10 MaxJobsPU=6
        sacctmgr -i modify qos where name=scav set GrpTRES=cpu=12
        sacctmgr -i modify qos where name=high set Preempt=normal,scav
        sacctmgr -i modify account where name=physics,biology cluster="$cluster" set QOS=normal,high,scav DefaultQOS=normal
    fi
    sacctmgr -i add user nobody Account=physics DefaultAccount=physics
    sacctmgr -i add user daemon Account=physics,biology DefaultAccount=physics
    sacctmgr -i add user bin Account=biology DefaultAccount=biology
    sacctmgr -i add user sys Account=biology DefaultAccount=biology
} >>"$tmp/log/sacctmgr.out" 2>&1 || fail "sacctmgr could not add the accounts and users: $(tail -n 3 "$tmp/log/sacctmgr.out")"
# `sacctmgr add cluster` gives root a user association under the root account:
# delete it, so that the user associations are exactly the workload's.
if sacctmgr -n -P show assoc cluster="$cluster" format=account,user | grep -qx 'root|root'; then
    sacctmgr -i delete user name=root account=root cluster="$cluster" >>"$tmp/log/sacctmgr.out" 2>&1 ||
        sacctmgr -i delete user where name=root cluster="$cluster" >>"$tmp/log/sacctmgr.out" 2>&1 || true
fi
if sacctmgr -n -P show assoc cluster="$cluster" format=account,user | grep -qx 'root|root'; then
    echo "note: root's user association could not be deleted: $(tail -n 2 "$tmp/log/sacctmgr.out" | paste -sd' ')"
fi
sacctmgr -P show assoc format=cluster,account,user,fairshare >"$out/assoc.txt"
echo "associations (OUT/assoc.txt): $(tail -n +2 "$out/assoc.txt" | paste -sd' ')"

# ---------------------------------------------------------------- slurmctld, slurmd
ctld_launch="$(date +%s)"
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
outer_ns="$(readlink /proc/self/ns/net)"
# slurmd $1 in a network namespace of its own, at address $2 on eth0, the
# peer of vh-$1 on br0. The namespace is made first (unshare --net), then
# eth0 is moved into it by PID, then slurmd is exec'd there.
start_node() {
    local name="$1" address="$2" pid ns=""
    mkdir -m 755 "$tmp/spool/$name"
    unshare --net -- bash -c '
        for _ in $(seq 1 100); do ip link show eth0 >/dev/null 2>&1 && break; sleep 0.1; done
        ip link set lo up && ip addr add "$2/24" dev eth0 && ip link set eth0 up || exit 1
        exec slurmd -D -N "$1" -f "$SLURM_CONF"' node "$name" "$address" >"$tmp/log/slurmd-$name.out" 2>&1 &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 50); do
        ns="$(readlink "/proc/$pid/ns/net" 2>/dev/null || true)"
        [[ -n "$ns" && "$ns" != "$outer_ns" ]] && break
        sleep 0.1
    done
    [[ -n "$ns" && "$ns" != "$outer_ns" ]] || fail "slurmd $name: no network namespace of its own (pid $pid)"
    ip link add "vh-$name" type veth peer name eth0 netns "$pid"
    ip link set "vh-$name" master br0 up
}
for n in "${nodes[@]}"; do start_node "$n" "${addr[$n]}"; done
echo "munged, MariaDB, slurmdbd, slurmctld, ${#nodes[@]} slurmd started (pids ${pids[*]}); config $SLURM_CONF"
idle=0
for _ in $(seq 1 90); do
    idle="$(timeout 10 sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 == "idle"' | sort -u | wc -l || true)"
    ((idle == ${#nodes[@]})) && break
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) exited at start"; done
    sleep 1
done
((idle == ${#nodes[@]})) || fail "only $idle of ${#nodes[@]} nodes idle after 90 s: $(sinfo -N -h -o '%N:%T' | paste -sd' ')"
sinfo -N -o '%N %P %c %m %G %T'
for n in "${nodes[@]}"; do
    pid="$(cat "$tmp/slurmd-$n.pid" 2>/dev/null || true)"
    [[ -n "$pid" ]] || continue
    echo "  $n: slurmd pid $pid in $(readlink "/proc/$pid/ns/net") with $(nsenter -t "$pid" -n ip -o -4 addr show dev eth0 2>/dev/null | awk '{print $4}' || echo '?')"
done
echo "this namespace ($outer_ns): $(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | paste -sd' ')"
scontrol show node gpu1 | grep -E 'Gres=|CfgTRES' | sed 's/^ */  gpu1: /'
# slurmctld's start: its BOOT_TIME, else the second it was launched.
boot="$(SLURM_TIME_FORMAT=%s scontrol show config | awk '$1 == "BOOT_TIME" { print $3 }')"
[[ "$boot" =~ ^[0-9]+$ ]] || boot="$ctld_launch"
echo "$boot" >"$out/controller-start.txt"
echo "slurmctld launched at $ctld_launch, BOOT_TIME $boot (OUT/controller-start.txt)"
echo "sshare -a -P: $(sshare -a -P | tail -n +2 | cut -d'|' -f1-3 | tr -d ' ' | paste -sd' ')"

# ---------------------------------------------------------------- plan
step "1. the workload: $jobs jobs over $span s on a grid of $grid s, plan seed $seed"
plan="$out/plan.tsv"
awk -v seed="$seed" -v jobs="$jobs" -v span="$span" -v grid="$grid" -v loaded="$load" -f "$root/tests/slurm/plan-workload.awk" >"$plan"
(($(wc -l <"$plan") == jobs + 1)) || fail "the plan has $(($(wc -l <"$plan") - 1)) jobs, expected $jobs"
awk -F'\t' 'NR > 1 {
        n++; part[$5]++; user[$3]++; acct[$4]++
        if ($6 == 2) two++; if ($9 > 0) gpus[$9]++
        cpu_s += $6 * $7 * $10
    }
    END {
        printf "plan: %d jobs; partitions", n; for (k in part) printf " %s %d", k, part[k]
        printf "; users"; for (k in user) printf " %s %d", k, user[k]
        printf "; accounts"; for (k in acct) printf " %s %d", k, acct[k]
        printf "; %d on 2 nodes; GPU jobs", two; for (k in gpus) printf " gpu:%s %d", k, gpus[k]
        printf "; %d CPU-seconds of sleep\n", cpu_s
    }' "$plan"
head -n 4 "$plan" | column -t

# The first submission: a multiple of 5 s (bf_resolution), at least 3 s from
# now, with slurmctld's priority recalculations (every PriorityCalcPeriod = 60
# s from its start) 5-9 s after a grid point.
# The recalculations run every 60 s from the start of priority/multifactor's
# decay thread, about 2 s after BOOT_TIME: its first log line dates it. Their
# phase matters: Slurm 22.05 charges fair-share usage only there, to the jobs
# running then (the time since the previous one); what a job ran after the
# last recalculation before its end is never charged. With the recalculation
# at 9 s after a grid point in one run and 11 s in another (the jobs end at
# 10 s), the usage of the same schedule differed by a factor of 3.
decay="$(grep -m1 -o '^\[[^]]*\] priority/multifactor: _read_last_decay_ran' "$tmp/log/slurmctld.log" | cut -c2-24 || true)"
decay="$(date -d "$decay" +%s 2>/dev/null || echo $((boot + 2)))"
echo "priority/multifactor's decay thread started at $decay (BOOT_TIME + $((decay - boot)) s)"
echo "$decay" >"$out/decay-start.txt"
# The backfill agent starts as slurmctld becomes the primary controller: the
# phase of the backfill passes (each pass bf_interval after the previous one
# while each finds work).
agent="$(grep -m1 -o '^\[[^]]*\] Running as primary controller' "$tmp/log/slurmctld.log" | cut -c2-24 || true)"
agent="$(date -d "$agent" +%s 2>/dev/null || echo "$boot")"
echo "the backfill agent started at $agent (BOOT_TIME + $((agent - boot)) s)"
echo "$agent" >"$out/backfill-start.txt"
sub0=$(($(date +%s) + 3))
while (((((decay - sub0) % grid) + grid) % grid != 7)); do sub0=$((sub0 + 1)); done
echo "$sub0" >"$out/sub0.txt"
# The jobs sleep to the grid (not --fixed-sleep): the replay ends each run
# as the job script does (compare --grid, OUT/grid.txt).
rm -f "$out/grid.txt" "$out/drain.txt"
((fixed_sleep)) || echo "$sub0:$grid" >"$out/grid.txt"
dump_start="$(date -d "@$((sub0 - 1))" +%Y-%m-%dT%H:%M:%S)"
# --load: the reservation, on cpu7 and cpu8 for account biology, from 5
# grid points after the first submission for 10 minutes (OUT/reservations.txt,
# dumped now: scontrol forgets a reservation once it has ended).
if ((load)); then
    scontrol create reservation ReservationName=window StartTime="$(date -d "@$((sub0 + 5 * grid))" +%Y-%m-%dT%H:%M:%S)" \
        Duration=10 Nodes=cpu7,cpu8 Accounts=biology || fail "scontrol create reservation failed"
    SLURM_TIME_FORMAT=%s scontrol show reservation >"$out/reservations.txt"
    echo "reservation (OUT/reservations.txt): $(tr -s ' \n' ' ' <"$out/reservations.txt")"
fi
echo "submissions start at $sub0 ($(date -d "@$sub0" '+%F %T'); OUT/sub0.txt), $(((((decay - sub0) % 60) + 60) % 60)) s before a priority recalculation; sacct -S $dump_start"

# The job script: sleep until SLEEP s after the grid point nearest to now.
sleeper="$tmp/work/grid-sleep"
cat >"$sleeper" <<'SLEEPER'
#!/bin/sh
# grid-sleep SUB0 GRID SLEEP: sleep until SLEEP seconds after the grid point
# (SUB0 + a multiple of GRID) nearest to now.
now=$(date +%s.%N)
exec sleep "$(awk -v now="$now" -v s0="$1" -v g="$2" -v d="$3" -v name="${SLURM_JOB_NAME:-j0}" 'BEGIN {
    p = s0 + g * int((now - s0) / g + 0.5); t = p + d - now; if (t < 1) t = 1; printf "%.3f", t }')"
SLEEPER
chmod 755 "$sleeper"

# --load: cpu3 is drained 2 grid points and 15 s after the first submission
# (its jobs run on; Slurm records the event when the last one ends) and
# resumed 7 grid points and 15 s after it (OUT/drain.txt: both requests'
# Unix times; the events are dumped to OUT/sacctmgr-event.txt).
if ((load)); then
    (
        trap - ERR
        set +e
        now_ns=$(date +%s%N); at=$((sub0 + 2 * grid + 15))
        sleep "$(awk -v d="$((at * 1000000000 - now_ns))" 'BEGIN { printf "%.3f", (d > 0 ? d : 0) / 1e9 }')"
        scontrol update NodeName=cpu3 State=DRAIN Reason="slasim drain test" && echo "drain $(date +%s)" >>"$out/drain.txt"
        now_ns=$(date +%s%N); at=$((sub0 + 7 * grid + 15))
        sleep "$(awk -v d="$((at * 1000000000 - now_ns))" 'BEGIN { printf "%.3f", (d > 0 ? d : 0) / 1e9 }')"
        scontrol update NodeName=cpu3 State=RESUME && echo "resume $(date +%s)" >>"$out/drain.txt"
    ) &
    drainer=$!
fi

# Samples of the queue, the priorities and the fair share, every grid point
# (12 s after it: after its starts, before the ends 10 s before the next).
snapshots="$out/snapshots.txt"
: >"$snapshots"
(
    trap - ERR
    set +e
    while :; do
        now_ns=$(date +%s%N)
        next=$((sub0 + 12)); while ((next * 1000000000 <= now_ns)); do next=$((next + grid)); done
        sleep "$(printf '%d.%09d' $(((next * 1000000000 - now_ns) / 1000000000)) $(((next * 1000000000 - now_ns) % 1000000000)))"
        {
            echo "### $(date +%s) squeue"
            squeue -h -o '%i %j %u %a %P %T %Q %r %S' 2>&1
            # What a forecast reads of the live queue: every pending and
            # running job, its request, nodes and Slurm's own start estimate
            # (%S: `squeue --start`'s), with Unix times.
            echo "### $(date +%s) squeue -t PD,R (forecast)"
            SLURM_TIME_FORMAT=%s squeue -h -t PD,R -o '%i|%j|%u|%a|%P|%q|%T|%Q|%r|%V|%S|%l|%D|%C|%m|%b|%N|%E|%v|%f' 2>&1
            echo "### $(date +%s) sprio -l"
            sprio -l 2>&1
            echo "### $(date +%s) sshare -a -l -P"
            sshare -a -l -P 2>&1
        } >>"$snapshots"
    done
) &
sampler=$!

# The jobs of each grid point G: sbatch as their users, one right after the
# other in plan order, `lead` s before G (after the ends 10 s before it) with
# --begin=G; then, 50 ms into G's second, one `scontrol update` of the first
# of them (its Comment) asks for a scheduling pass, as a submission does
# (queue_job_scheduler). Every job of G is so eligible from G on (sacct's
# Eligible, which slasim takes as the arrival), and the background loop,
# which passes every second or so and at least batch_sched_delay after its
# previous pass, cannot split them between two passes by the timing of the
# sbatch calls: without this, a pass in the middle of a burst started the
# burst's first jobs before higher-priority ones submitted a few hundred ms
# later, differently from run to run.
lead=6
# --load: up to 36 jobs a grid point; 8 s for their sbatch calls.
((!load)) || lead=8
submitted="$out/submitted.tsv"
printf 'name\tjobid\tplanned\tsubmitted\n' >"$submitted"
# --load: what sacct 22.05 does not record (no SubmitLine, no dependency
# column), per job as sbatch printed its id (an array: its ArrayJobID), in
# sacct's own form, to be joined with the dump on JobID (array tasks:
# JobID ID_TASK, their array job ID): the dependency as given to sbatch
# (job ids) and the whole sbatch command line.
sidecar="$out/submit.sacct"
((!load)) || printf 'JobID|JobName|Dependency|SubmitLine\n' >"$sidecar"
declare -A idof=()
late_max=0 count=0 burst_max=0 trigger_late_max=0
# sleep_until EPOCH_NS: sleeps until that instant (at once when it is past).
sleep_until() {
    local wait_ns=$(($1 - $(date +%s%N)))
    if ((wait_ns > 0)); then sleep "$(printf '%d.%09d' $((wait_ns / 1000000000)) $((wait_ns % 1000000000)))"; fi
}
# trigger OFFSET JOBID: the scheduling request of grid point OFFSET.
trigger() {
    sleep_until $(((sub0 + $1) * 1000000000 + 50000000))
    local at
    at=$(date +%s)
    scontrol update JobId="$2" Comment="grid $1" ||
        fail "scontrol update JobId=$2 (the scheduling request of grid point $1) failed"
    ((at - sub0 - $1 <= trigger_late_max)) || trigger_late_max=$((at - sub0 - $1))
}
last_offset=-1 first_id=""
while IFS=$'\t' read -r name offset user account partition nnodes cpus mem gpus sleep_s limit qos resv dep array; do
    target=$((sub0 + offset))
    if ((offset != last_offset)); then
        if ((last_offset >= 0)); then trigger "$last_offset" "$first_id"; fi
        if ((last_offset >= 0 && (last_offset / grid) % 5 == 4)); then
            echo "  $count submitted [$(($(date +%s) - sub0)) s]; queue: $(squeue -h -o '%T' | sort | uniq -c | awk '{printf "%s %s ", $2, $1}')"
        fi
        sleep_until $(((target - lead) * 1000000000 + 50000000))
        burst_ns=$(date +%s%N) last_offset=$offset first_id=""
        begin="$(date -d "@$target" +%Y-%m-%dT%H:%M:%S)"
    fi
    jname="$name" depend=""
    if ((load)); then
        case "$dep" in
            singleton) jname="single_$user" depend=singleton ;;
            after*:*) [[ -n "${idof[${dep#*:}]:-}" ]] || fail "$name depends on ${dep#*:}, not submitted before it"
                depend="${dep%%:*}:${idof[${dep#*:}]}" ;;
        esac
    fi
    args=(--parsable -J "$jname" -A "$account" -p "$partition" -N "$nnodes" --ntasks-per-node="$cpus" --mem="${mem}M"
        --time="$limit" --begin="$begin" -o /dev/null -D "$tmp/work")
    ((gpus == 0)) || args+=(--gres="gpu:$gpus")
    if ((load)); then
        args+=(--qos="$qos")
        [[ "$resv" == - ]] || args+=(--reservation="$resv")
        [[ -z "$depend" ]] || args+=(--dependency="$depend")
        [[ "$array" == - ]] || args+=(--array="$array")
    fi
    if ((fixed_sleep)); then wrap="sleep $sleep_s"; else wrap="exec $sleeper $sub0 $grid $sleep_s"; fi
    at=$(date +%s)
    id="$(runuser -u "$user" -- sbatch "${args[@]}" --wrap "$wrap" 2>&1 | cut -d';' -f1)" || true
    [[ "$id" =~ ^[0-9]+$ ]] || fail "sbatch of $name as $user did not print a job id: $id"
    [[ -n "$first_id" ]] || first_id="$id"
    idof[$name]="$id"
    ((!load)) || printf '%s|%s|%s|%s\n' "$id" "$jname" "$depend" "sbatch ${args[*]:1} --wrap=$wrap" >>"$sidecar"
    printf '%s\t%s\t%s\t%s\n' "$name" "$id" "$target" "$at" >>"$submitted"
    ((at - (target - lead) <= late_max)) || late_max=$((at - (target - lead)))
    took=$((($(date +%s%N) - burst_ns) / 1000000))
    ((took <= burst_max)) || burst_max=$took
    ((at < target)) || fail "the sbatch of $name ended after its grid point (the burst took $took ms)"
    count=$((count + 1))
done < <(tail -n +2 "$plan")
((last_offset < 0)) || trigger "$last_offset" "$first_id"
echo "all $count submitted in $(($(date +%s) - sub0)) s, each burst $lead s before its grid point with --begin there;"
echo "  the latest sbatch started $late_max s after its burst's second, the longest burst took $burst_max ms;"
echo "  the latest scheduling request came $trigger_late_max s after its grid point"

# ---------------------------------------------------------------- wait
# Jobs to end: one per plan line, or 8 per array (--load).
expected="$(awk -F'\t' 'NR > 1 { n += ($15 == "0-7%2" ? 8 : 1) } END { print n }' "$plan")"
step "waiting for every job to end (at most 20 minutes after the first submission)"
deadline=$((sub0 + 1200))
final='^(COMPLETED|FAILED|TIMEOUT|CANCELLED.*|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE)$'
last_report=0
while :; do
    queued="$(timeout 20 squeue -h -o '%T' 2>/dev/null | sort | uniq -c | awk '{printf "%s %s ", $2, $1}')" || queued="?"
    if [[ -z "$queued" ]]; then
        ended="$(timeout 20 sacct --allusers -X -n -P -S "$dump_start" --format=JobName,State 2>/dev/null |
            awk -F'|' -v re="$final" '$1 ~ /^(j[0-9]+|single_[a-z]+)$/ && $2 ~ re' | wc -l || true)"
        ((ended == expected)) && break
    fi
    now=$(date +%s)
    ((now < deadline)) || fail "jobs still not ended 20 minutes after the first submission (queue: $queued)"
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) died"; done
    # --load: a job that can never start (its reservation ended, or its
    # dependency can no longer be met) fails the run at once.
    if ((load)) && stuck="$(timeout 20 squeue -h -t all -o '%i %j %T %r' 2>/dev/null |
        grep -E 'RESV_DEL_HOLD|DependencyNeverSatisfied' | head -n 5)" && [[ -n "$stuck" ]]; then
        fail "jobs that can never start: $(paste -sd';' <<<"$stuck")"
    fi
    if ((now - last_report >= 30)); then
        echo "  [$((now - sub0)) s] queue: ${queued:-empty, waiting for the accounting}"
        last_report=$now
    fi
    sleep 3
done
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=""
if [[ -n "$drainer" ]]; then
    wait "$drainer" 2>/dev/null || true
    drainer=""
    [[ "$(cut -d' ' -f1 "$out/drain.txt" 2>/dev/null | paste -sd' ')" == "drain resume" ]] ||
        fail "cpu3 was not drained and resumed (OUT/drain.txt: $(paste -sd';' "$out/drain.txt" 2>/dev/null))"
fi
echo "every job ended, $(($(date +%s) - sub0)) s after the first submission"

# ---------------------------------------------------------------- dump
step "2. the accounting dump"
format=JobIDRaw,JobID,JobName,User,Group,Account,Partition,QOS,Submit,Eligible,Start,End,Elapsed,Timelimit,ReqCPUS,AllocCPUS,ReqNodes,AllocNodes,ReqMem,ReqTRES,AllocTRES,NodeList,State
dump="$out/dump.sacct"
SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --format="$format" -S "$dump_start" >"$dump"
SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 -X --format=JobIDRaw,JobName,Partition,Priority,Flags,Reason,Submit,Eligible,Start \
    -S "$dump_start" >"$out/sched.sacct"
sshare -a -l -P >"$out/sshare.txt"
if ((load)); then
    # --load: Reservation and Constraints too; every record of a requeued job
    # (--duplicates); the QOS, and the associations with their limits.
    format="$format,Reservation,Constraints,SubmitLine"
    SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --format="$format" -S "$dump_start" >"$dump"
    SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --duplicates --format="$format" -S "$dump_start" >"$out/dump-duplicates.sacct"
    sacctmgr -P show qos >"$out/sacctmgr-qos.txt"
    SLURM_TIME_FORMAT=%s sacctmgr -P show event Start="$dump_start" format=NodeName,TimeStart,TimeEnd,State,Reason \
        >"$out/sacctmgr-event.txt"
    echo "node events (OUT/sacctmgr-event.txt): $(tail -n +2 "$out/sacctmgr-event.txt" | paste -sd';')"
    echo "drain and resume asked for at (OUT/drain.txt): $(paste -sd' ' "$out/drain.txt")"
    sacctmgr -P show assoc format=Cluster,Account,User,Share,ParentName,DefaultQOS,QOS,GrpJobs,GrpTRES,MaxJobs,MaxSubmit,MaxWall >"$out/sacctmgr-assoc.txt"
else
    sacctmgr -P show assoc format=Cluster,Account,User,Fairshare,ParentName,DefaultQOS >"$out/sacctmgr-assoc.txt"
fi
scontrol show config >"$out/scontrol-config.txt"
scontrol show nodes >"$out/scontrol-nodes.txt"
scontrol show partitions >"$out/scontrol-partitions.txt"
cp "$SLURM_CONF" "$out/slurm.conf"
cp "$tmp/gres.conf" "$out/gres.conf"
echo "SLURM_TIME_FORMAT=%s sacct --allusers --parsable2 --format=$format -S $dump_start"
echo "  -> $dump: $(wc -l <"$dump") lines"
head -n 3 "$dump"

if ((load)); then
    # --load: every job and array task submitted has one record that ended
    # COMPLETED; what preemption did (--duplicates).
    check="$(awk -F'\t' 'FILENAME == ARGV[1] { if (FNR > 1) sub_[$2] = $1; next }
        FNR == 1 { FS = "|"; $0 = $0; for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            id = $col["JobID"]; if (index(id, ".")) next
            base = id; sub(/_.*/, "", base); if (!(base in sub_)) next
            n++; state[$col["State"]]++; if ($col["State"] != "COMPLETED") bad = bad " " id "(" $col["State"] ")"
        }
        END { printf "%d records;", n; for (s in state) printf " %s %d", s, state[s]; print ""; if (bad != "") print "bad" bad }' \
        "$submitted" "$dump")"
    echo "dump: $check"
    if grep -q '^bad' <<<"$check"; then fail "jobs that did not complete: $(grep '^bad' <<<"$check" | cut -c4- | head -c 2000)"; fi
    [[ "$(head -n1 <<<"$check" | cut -d' ' -f1)" == "$expected" ]] || fail "expected $expected job records in the dump"
    echo "every record of a job (--duplicates), by state: $(awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["JobID"] !~ /\./ { s[$col["State"]]++ } END { for (k in s) printf "%s %d ", k, s[k] }' "$out/dump-duplicates.sacct")"
else
# Every planned job once, as planned; GPU jobs on gpu nodes; at least 4 nodes used.
check="$(awk -F'\t' -v OFS='\t' -v fixed="$fixed_sleep" -v sub0="$sub0" -v grid="$grid" '
    FILENAME == ARGV[1] { if (FNR > 1) plan[$1] = $0; next }
    FILENAME == ARGV[2] { if (FNR > 1) planned[$1] = $3; next }
    FNR == 1 { FS = "|"; $0 = $0; for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        id = $col["JobIDRaw"]; name = $col["JobName"]
        if (index(id, ".") || !(name in plan)) next
        seen[name]++
        split(plan[name], p, "\t") # name offset user account partition nodes cpus mem gpus sleep limit
        what = name " (job " id ")"
        if ($col["State"] != "COMPLETED") bad = bad "\n" what " ended " $col["State"]
        if ($col["User"] != p[3]) bad = bad "\n" what ": user " $col["User"] ", planned " p[3]
        if ($col["Account"] != p[4]) bad = bad "\n" what ": account " $col["Account"] ", planned " p[4]
        if ($col["Partition"] != p[5]) bad = bad "\n" what ": partition " $col["Partition"] ", planned " p[5]
        if ($col["AllocNodes"] != p[6]) bad = bad "\n" what ": " $col["AllocNodes"] " nodes, planned " p[6]
        if ($col["ReqCPUS"] != p[6] * p[7] || $col["AllocCPUS"] != p[6] * p[7])
            bad = bad "\n" what ": CPUs " $col["ReqCPUS"] "/" $col["AllocCPUS"] ", planned " p[6] * p[7]
        if ($col["Timelimit"] != sprintf("00:%02d:00", p[11])) bad = bad "\n" what ": time limit " $col["Timelimit"] ", planned " p[11] " min"
        gpu = ($col["AllocTRES"] ~ /gres\/gpu=/) ? $col["AllocTRES"] : ""
        sub(/.*gres\/gpu=/, "", gpu); sub(/,.*/, "", gpu); gpu += 0
        if (gpu != p[9]) bad = bad "\n" what ": " gpu " GPUs in AllocTRES, planned " p[9]
        if (p[9] > 0 && $col["NodeList"] !~ /^gpu[0-9]+$/) bad = bad "\n" what ": a GPU job on " $col["NodeList"]
        if (fixed) { if ($col["End"] - $col["Start"] < p[10]) bad = bad "\n" what ": ran " $col["End"] - $col["Start"] " s, sleeps " p[10] }
        else {
            g = sub0 + grid * int(($col["Start"] - sub0) / grid + 0.5)
            off = $col["End"] - (g + p[10])
            if (off < -1 || off > 2) bad = bad "\n" what ": ended " off " s off its grid (start " $col["Start"] - sub0 ", end " $col["End"] - sub0 " s after the first submission)"
        }
        late = $col["Eligible"] - planned[name]
        if (late != 0) bad = bad "\n" what ": eligible " late " s after its planned time"
        print "node", $col["NodeList"]
    }
    END {
        for (n in plan) if (seen[n] != 1) bad = bad "\n" n ": " seen[n] + 0 " records in the dump"
        if (bad != "") print "bad", substr(bad, 2)
    }' "$plan" "$submitted" "$dump")"
if grep -q '^bad' <<<"$check"; then
    fail "the dump does not match the plan:$(sed -n '/^bad/,$p' <<<"$check" | sed '1s/^bad\t/\n/' | head -n 30)"
fi
used="$(grep '^node' <<<"$check" | cut -f2 | sort -u | xargs -r -n1 scontrol show hostnames | sort -u | paste -sd' ')"
(($(wc -w <<<"$used") >= 4)) || fail "the jobs ran on only these nodes: $used"
echo "all $jobs planned jobs in the dump once, COMPLETED, with their user, account, partition, nodes, CPUs, GPUs and time limit$( ((fixed_sleep)) || echo ", ending on their grid");"
echo "  each eligible at its planned second; GPU jobs on gpu nodes; nodes used: $used"
fi

# Waits (Start - Eligible) and how each job was started (sacct Flags).
awk -F'|' 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["JobName"] ~ /^(j[0-9]+|single_[a-z]+)$/ {
        w = $col["Start"] - $col["Eligible"]; part = $col["Partition"]
        n[part]++; sum[part] += w; if (w > max[part]) max[part] = w
        if (w > 0) waited[part]++; if (w >= 10) w10[part]++; if (w >= 60) w60[part]++
        f = $col["Flags"]; how = f ~ /SchedBackfill/ ? "backfill" : f ~ /SchedMain/ ? "main" : f ~ /SchedSubmit/ ? "submit" : "other"
        by[part, how]++; wait_by[how] += w; cnt_by[how]++
    }
    END {
        for (p in n)
            printf "  %s: %d jobs; waited > 0 s: %d, >= 10 s: %d, >= 60 s: %d; mean wait %.1f s, max %d s; started by submit %d, main %d, backfill %d\n",
                p, n[p], waited[p], w10[p], w60[p], sum[p] / n[p], max[p], by[p, "submit"], by[p, "main"], by[p, "backfill"]
        for (h in cnt_by) printf "  started by %s: %d jobs, mean wait %.1f s\n", h, cnt_by[h], wait_by[h] / cnt_by[h]
    }' "$out/sched.sacct" | tee "$out/waits.txt"
# Out of submission order: jobs that started while a job submitted before them
# to the same partition was still waiting (what backfilling allows).
awk -F'|' 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["JobName"] ~ /^(j[0-9]+|single_[a-z]+)$/ { n++; p[n] = $col["Partition"]; sub_[n] = $col["Eligible"]; st[n] = $col["Start"]; id[n] = $col["JobIDRaw"] + 0 }
    END {
        for (j = 1; j <= n; j++) {
            for (i = 1; i <= n; i++)
                if (p[i] == p[j] && (sub_[i] < sub_[j] || (sub_[i] == sub_[j] && id[i] < id[j])) && st[i] > st[j] && sub_[i] < st[j]) {
                    ahead[p[j]]++; break
                }
            total[p[j]]++
        }
        for (q in total) printf "  %s: %d of %d jobs started while a job submitted before them to %s was still waiting\n", q, ahead[q], total[q], q
    }' "$out/sched.sacct" | tee -a "$out/waits.txt"
echo "sshare -a -l -P:"
column -t -s'|' "$out/sshare.txt" | cut -c1-150

# ---------------------------------------------------------------- sharded sweep
if ((!load)); then # --load: no sweep
step "2b. the sharded sweep across the nodes"
sweep_started=$SECONDS
# Only now, after the dump, root gets a user association, in an account of
# its own: the workload's fair share is untouched.
{
    sacctmgr -i add account sweeps Cluster="$cluster" Description=sweeps Organization=slasim
    sacctmgr -i add user root Account=sweeps
} >>"$tmp/log/sacctmgr.out" 2>&1 || fail "sacctmgr could not add root to account sweeps: $(tail -n 3 "$tmp/log/sacctmgr.out")"
slasim="${SLASIM:-$root/target/release/slasim}"
[[ -x "$slasim" ]] || fail "no slasim binary at $slasim"
config="$root/configs/quick.toml"
mkdir -p "$tmp/sweep"
# A whole node (4 CPUs, 2000 MB at DefMemPerCPU=500) per array task, so that
# the 4 tasks run on 4 nodes at once; task 1 submits the merge job from its
# node's namespace, to slurmctld over br0.
sweep_tmp="$tmp/sweep" sweep_partition=cpu sweep_account=sweeps sweep_cpus=4
deadline=$((SECONDS + 180)) budget="3-minute budget"
. "$root/tests/slurm/sweep.sh"
sweep_work="$tmp/work/sweep"
sweep_script="$(emit "$sweep_work")"
echo "its #SBATCH options: $(sed -n 's/^#SBATCH //p' "$sweep_script" | paste -sd' ')"
# slurmctld learns of the new association from slurmdbd: retry for a few seconds.
for _ in $(seq 1 10); do
    sweep_array="$(sbatch --parsable "$sweep_script" 2>"$tmp/log/sweep-sbatch.err" | cut -d';' -f1)" || true
    [[ "$sweep_array" =~ ^[0-9]+$ ]] && break
    sleep 1
done
[[ "$sweep_array" =~ ^[0-9]+$ ]] || fail "sbatch of the sweep script did not print a job id: $(cat "$tmp/log/sweep-sbatch.err")"
echo "submitted array job $sweep_array"
local_reference
completes "$sweep_work" "$sweep_array"
# Where each task ran (scontrol's NodeList), one "task node" line each.
placed="$(while read -r line; do
    [[ -z "$line" ]] || echo "$(field ArrayTaskId <<<"$line") $(field NodeList <<<"$line")"
done < <(records "$sweep_array") | sort -n)"
distinct="$(cut -d' ' -f2 <<<"$placed" | sort -u | paste -sd' ')"
echo "the 4 array tasks ran on $(wc -w <<<"$distinct") distinct nodes ($(awk '{ printf "%stask %s on %s", (NR > 1 ? ", " : ""), $1, $2 }' <<<"$placed"));" \
    "the merge job on $(records "$(merge_job "$sweep_work" "$sweep_array")" | field NodeList)"
(($(wc -w <<<"$distinct") >= 2)) || fail "the 4 array tasks ran on only one node: $distinct"
if ((keep_out)); then mkdir -p "$out/sweep" && cp "$sweep_work"/*.sbatch "$sweep_work"/*.out "$out/sweep/"; fi
echo "the sharded sweep passed in $((SECONDS - sweep_started)) s"
fi

# ---------------------------------------------------------------- stop
stop_cluster
cluster_stopped=1
if ((keep_out)); then mkdir -p "$out/logs" && cp "$tmp"/log/* "$out/logs/"; fi
echo "cluster stopped; $( ((keep_out)) && echo "kept in $out: $(cd "$out" && ls | paste -sd' ')" || echo "output in a temporary directory (--out DIR keeps it)")"

# ---------------------------------------------------------------- compare
step "3. slasim slurm compare"
slasim="${SLASIM:-$root/target/release/slasim}"
if [[ -x "$slasim" ]] && "$slasim" slurm compare --help >/dev/null 2>&1; then
    # slurmctld's periodic passes keep the decay thread's phase; the
    # tolerance is compare's default, the conf's bf_interval.
    compare=(--out "$out/compare.csv" --min-in-order "$min_in_order" --max-outside "$max_outside")
    # --load: the --duplicates dump (a requeued job from its first
    # submission), with the QOS, association and reservation dumps.
    if ((load)); then compare=(--out "$out/compare.csv" --min-in-order 0); fi
    mapfile -t replay < <(twin_compare_args "$out")
    compare=("${replay[@]}" "${compare[@]}")
    echo "$slasim slurm compare ${compare[*]}"
    compare_status=0
    "$slasim" slurm compare "${compare[@]}" >"$out/compare.txt" 2>&1 || compare_status=$?
    cat "$out/compare.txt"
    echo "slasim slurm compare exited $compare_status (OUT/compare.txt, OUT/compare.csv)"
    if ((require_match && compare_status != 0)); then
        unseen_order "$out" "$tmp/log/slurmctld.log" || true
        fail "slasim slurm compare exited $compare_status (--require-match)$( ((keep_out)) || echo "; --out DIR keeps the dump and slurm.conf")"
    fi
else
    if [[ -x "$slasim" ]]; then reason="$slasim has no 'slurm compare' subcommand"; else reason="no slasim binary at $slasim"; fi
    ((require_match)) && fail "cannot compare with slasim (--require-match): $reason"
    # Not compared: SKIPPED outside CI, a failure under CI=true (.ci/skip.sh).
    skip "slurm cluster comparison" "$reason" || fail "cannot compare with slasim: $reason"
fi

echo
echo "slurm cluster test passed in $(($(date +%s) - t0)) s"
