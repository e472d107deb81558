#!/usr/bin/env bash
# Scale-out tested on a real Slurm: a private single-node cluster (munged,
# slurmctld, slurmd from Debian's slurm-wlm and munge) on 127.0.0.1, with its
# config, key, sockets, state and logs in one temporary directory.
#
#   1. `slasim sweep configs/quick.toml --emit-slurm 4` writes the sbatch script;
#      it is submitted; the 4 array tasks and the merge job they submit must end
#      COMPLETED, and the merged store must equal a local sweep of the config.
#   2. Again in a fresh directory, with array task 2 cancelled before it runs:
#      the merge job must never run; submitting the same script again must
#      simulate only shard 2 (the others report their points "already there")
#      and the merge must then complete and equal the local sweep.
#   3. A provisioning config (MOGA on the synthetic default) the same way: 2
#      array tasks + merge, the merged store equal to a local sweep in every
#      provisioning table.
#   4. Then, with this cluster stopped, tests/slurm/accounting.sh: Slurm
#      accounting (slurmdbd on MariaDB) dumped with sacct, converted and
#      simulated; it skips plainly when its packages cannot be installed.
#
# Usage: tests/slurm/run.sh   (as root; SLASIM=/path/to/slasim to use another binary)
#        tests/slurm/run.sh --install   (installs this test's packages and
#        accounting.sh's, then exits: 0 when both can run)
# Skipped (exit 0) when not root or when Slurm and munge cannot be installed
# with apt-get; under CI=true that is a failure (see .ci/skip.sh;
# SLASIM_CI_UNAVAILABLE=slurm makes it so).
# Every wait is bounded; the daemons it started are stopped by their PIDs and
# the temporary directory is removed on every exit.
set -eEuo pipefail
trap 'echo "slurm test FAILED: line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
cd "$(dirname "$0")/../.."
root="$PWD"
started=$SECONDS
export PATH="$PATH:/usr/sbin:/sbin"

fail() { echo "slurm test FAILED: $*" >&2; exit 1; }
step() { echo; echo "== $*"; }
. "$root/.ci/skip.sh"

have() { local path; path="$(command -v "$1")" && [[ -x "$path" ]]; }
why=""
# Root, and Slurm and munge installed (with apt-get when missing); else sets $why and fails.
prerequisites() {
    local out tool
    if unavailable slurm; then
        why="SLASIM_CI_UNAVAILABLE names slurm: slurm-wlm and munge treated as not installable"; return 1
    fi
    if [[ $(id -u) -ne 0 ]]; then
        why="the Slurm test runs slurmd and munged as root; run it as root"; return 1
    fi
    if ! have slurmctld || ! have slurmd || ! have sbatch || ! have munged; then
        if ! out="$("$root/.ci/apt-install" slurm-wlm munge 2>&1)"; then
            why="cannot install slurm-wlm/munge with apt-get (${out:-apt-get failed})"; return 1
        fi
    fi
    for tool in slurmctld slurmd sbatch squeue scontrol scancel sinfo munged; do
        have "$tool" || { why="cannot install slurm-wlm/munge with apt-get ($tool is still missing)"; return 1; }
    done
}
if [[ "${1:-}" == --install ]]; then
    prerequisites || { echo "$why"; exit 1; }
    echo "slurm test: $(slurmctld -V), $(munged -V 2>&1 | head -n1)"
    exec "$root/tests/slurm/accounting.sh" --install
fi

slasim="${SLASIM:-$root/target/release/slasim}"
if [[ -z "${SLASIM:-}" && ! -x "$slasim" ]]; then cargo build --release --locked; fi
[[ -x "$slasim" ]] || fail "no slasim binary at $slasim"
config="$root/configs/quick.toml"

# ---------------------------------------------------------------- bad input
step "bad --emit-slurm input is refused before any script is written"
probe="$(mktemp -d)"
for args in "--emit-slurm 0" "--emit-slurm 53" "--emit-slurm 4 --partition bad;name"; do
    read -r -a argv <<<"$args"
    if "$slasim" sweep "$config" "${argv[@]}" --db "$probe/q.sqlite" --script "$probe/s.sbatch" >"$probe/out" 2>&1; then
        rm -rf "$probe"; fail "slasim sweep quick.toml $args was accepted"
    fi
    [[ ! -e "$probe/s.sbatch" ]] || { rm -rf "$probe"; fail "slasim sweep quick.toml $args wrote a script"; }
    echo "slasim sweep configs/quick.toml $args  ->  $(head -n1 "$probe/out")"
done
rm -rf "$probe"

# ---------------------------------------------------------------- install
step "Slurm and munge"
prerequisites || skip_and_exit "slurm test" "$why"
echo "$(slurmctld -V), $(munged -V 2>&1 | head -n1)"

# ---------------------------------------------------------------- cluster
tmp="$(mktemp -d)"
chmod 711 "$tmp" # munged wants every directory above its socket searchable
pids=()
cleanup() {
    local status=$?
    if [[ -n "${SLURM_CONF:-}" && -e "${SLURM_CONF:-}" ]] && ((${#pids[@]} > 1)); then
        scancel --quiet --user=root >/dev/null 2>&1 || true # the jobs of this private cluster only
        sleep 1
    fi
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if ((status != 0)) && [[ -d "$tmp/log" ]]; then
        echo "--- last lines of the daemon logs ($tmp/log) ---" >&2
        tail -n 15 "$tmp"/log/*.log "$tmp"/log/munged.out >&2 2>/dev/null || true
    fi
    rm -rf "$tmp"
    # Slurm accounting as a workload, in the same CI step once this cluster
    # is stopped: its own private cluster with slurmdbd and MariaDB
    # (tests/slurm/accounting.sh, which skips, or fails under CI, on its own).
    if ((status == 0)) && [[ "${scale_out_passed:-0}" == 1 ]]; then
        trap - ERR
        env -u SLURM_CONF "$root/tests/slurm/accounting.sh" || status=$?
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "slurm test interrupted" >&2; exit 130' INT TERM

mkdir -m 755 "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
mkdir -m 700 "$tmp/key"
. "$root/tests/slurm/daemons.sh"
start_munged

# Two free TCP ports on 127.0.0.1 (no listener on them in /proc/net/tcp*).
port_busy() { grep -qiE "^ *[0-9]+: [0-9A-F]+:$(printf '%04X' "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
for _ in $(seq 1 50); do
    ctld_port=$((20000 + RANDOM % 20000))
    port_busy "$ctld_port" || port_busy $((ctld_port + 1)) || break
done
slurmd_port=$((ctld_port + 1))

node=slasimtest
partition=slasim-test
cpus="$(nproc)"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=slasimtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
MinJobAge=3600
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
echo "munged, slurmctld, slurmd started (pids ${pids[*]}); config $SLURM_CONF"
state=""
for _ in $(seq 1 60); do
    state="$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null || true)"
    [[ "$state" == idle ]] && break
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) exited at start"; done
    sleep 1
done
[[ "$state" == idle ]] || fail "node $node not idle after 60 s (sinfo: '${state}')"
sinfo -N -o '%N %P %c %T'

# Listening sockets of the daemons: 127.0.0.1 only.
listeners() {
    local file line addr port
    for file in /proc/net/tcp /proc/net/tcp6; do
        [[ -r "$file" ]] || continue
        while read -r _ line _ st _; do
            [[ "$st" == 0A ]] || continue
            addr="${line%:*}" port=$((16#${line#*:}))
            ((port == ctld_port || port == slurmd_port)) || continue
            if [[ ${#addr} -eq 8 ]]; then
                printf '%d.%d.%d.%d:%d\n' $((16#${addr:6:2})) $((16#${addr:4:2})) $((16#${addr:2:2})) $((16#${addr:0:2})) "$port"
            else
                echo "[$addr]:$port"
            fi
        done <"$file"
    done
}
listening="$(listeners | sort -u | paste -sd' ')"
echo "listening: $listening"
[[ -n "$listening" ]] || fail "the daemons listen on no TCP port of theirs"
for l in $listening; do [[ "$l" == 127.0.0.1:* ]] || fail "a daemon listens on $l, not on 127.0.0.1"; done

# ---------------------------------------------------------------- helpers
deadline=$((SECONDS + 600)) # all waiting for jobs together: at most 10 minutes
terminal='^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|BOOT_FAIL|DEADLINE)$'
# The value of field $1 (Key=value) in the first record read from stdin.
field() { awk -v key="$1=" 'done != 1 { for (i = 1; i <= NF; i++) if (index($i, key) == 1) { print substr($i, length(key) + 1); done = 1; break } }'; }
records() { scontrol show job -o "$1" 2>/dev/null || true; }
# Waits until no record of array job $1 is pending or running.
wait_array() {
    local line s busy seen
    while :; do
        busy=0 seen=0
        while read -r line; do
            [[ -n "$line" ]] || continue
            seen=1
            s="$(field JobState <<<"$line")"
            [[ "$s" =~ $terminal ]] || busy=1
        done < <(records "$1")
        ((seen == 1 && busy == 0)) && return 0
        ((SECONDS < deadline)) || fail "array job $1 still running after the 10-minute budget"
        sleep 1
    done
}
# Prints one line per array task: task, job id, state, exit code.
show_array() {
    local line
    while read -r line; do
        [[ -n "$line" ]] || continue
        printf '  array %s task %s: job %s %s exit %s\n' "$1" "$(field ArrayTaskId <<<"$line")" \
            "$(field JobId <<<"$line")" "$(field JobState <<<"$line")" "$(field ExitCode <<<"$line")"
    done < <(records "$1") | sort -k4,4n
}
# The state of array job $1's task $2 ("" when Slurm has no record of it).
task_state() {
    local line
    while read -r line; do
        if [[ "$(field ArrayTaskId <<<"$line")" == "$2" ]]; then field JobState <<<"$line"; fi
    done < <(records "$1")
}
# The merge job that task 1 submitted: the first line of its log (sbatch --parsable).
merge_job() {
    local log="$1/slasim-quick-$2_1.out" id
    [[ -s "$log" ]] || fail "task 1 of array $2 wrote no log at $log"
    id="$(head -n1 "$log" | cut -d';' -f1)"
    [[ "$id" =~ ^[0-9]+$ ]] || fail "task 1 of array $2 did not submit the merge job: $(cat "$log")"
    echo "$id"
}
wait_job() { # job $1 in a terminal state; prints it
    local s
    while :; do
        s="$(records "$1" | field JobState)"
        [[ "$s" =~ $terminal ]] && { echo "$s"; return 0; }
        ((SECONDS < deadline)) || fail "job $1 still ${s:-unknown} after the 10-minute budget"
        sleep 1
    done
}
emit() { # work dir; writes the script there, prints its path
    mkdir -p "$1"
    "$slasim" sweep "$config" --emit-slurm 4 --db "$1/quick.sqlite" --cpus-per-task 1 --time 10:00 \
        --partition "$partition" --account slasimtest >&2
    echo "$1/slasim-quick.sbatch"
}
csv() { "$slasim" query --db "$1" --csv "$2"; }
same_as_local() { # merged store $1 equals the local sweep, point for point and job for job
    local merged="$1" a b
    a="$(csv "$merged" "SELECT count(*) FROM points" | tail -n1)"
    b="$(csv "$local_db" "SELECT count(*) FROM points" | tail -n1)"
    [[ "$a" == "$b" ]] || fail "merged store has $a points, the local sweep $b"
    csv "$merged" "SELECT * FROM jobs ORDER BY run_id, job" >"$tmp/merged-jobs.csv"
    cmp -s "$tmp/merged-jobs.csv" "$tmp/local-jobs.csv" ||
        fail "jobs rows of $merged differ from the local sweep's ($(cmp "$tmp/merged-jobs.csv" "$tmp/local-jobs.csv" 2>&1 || true))"
    csv "$merged" "$points_query" >"$tmp/merged-points.csv"
    cmp -s "$tmp/merged-points.csv" "$tmp/local-points.csv" || fail "points rows of $merged differ from the local sweep's"
    echo "equal to the local sweep: $a points; $(($(wc -l <"$tmp/local-jobs.csv") - 1)) jobs rows (SELECT * FROM jobs ORDER BY run_id, job) byte-identical; points rows (all columns but wall_seconds) byte-identical"
}

# The reference: the same config swept locally.
local_db="$tmp/local.sqlite"
"$slasim" sweep "$config" --db "$local_db" --no-progress >/dev/null
csv "$local_db" "SELECT * FROM jobs ORDER BY run_id, job" >"$tmp/local-jobs.csv"
columns="$(csv "$local_db" "SELECT name FROM pragma_table_info('points') WHERE name <> 'wall_seconds'" | tail -n +2 | paste -sd,)"
[[ -n "$columns" ]] || fail "cannot list the columns of points"
points_query="SELECT $columns FROM points ORDER BY run_id"
csv "$local_db" "$points_query" >"$tmp/local-points.csv"

# Work directories with blanks, quotes, '#', '$' and '%' in their names: the
# script must quote every path for sbatch and for the shell.
# Waits for array job $2 of the script in $1 and its merge job; checks that
# the 4 tasks and the merge completed and that the merged store equals the
# local sweep.
completes() {
    local work="$1" array="$2" merge merge_state task
    wait_array "$array"
    merge="$(merge_job "$work" "$array")"
    merge_state="$(wait_job "$merge")"
    show_array "$array"
    echo "  merge job $merge (afterok:$array): $merge_state exit $(records "$merge" | field ExitCode)"
    for task in 1 2 3 4; do
        [[ "$(task_state "$array" "$task")" == COMPLETED ]] || fail "array $array task $task did not complete"
    done
    [[ "$merge_state" == COMPLETED ]] || fail "merge job $merge ended $merge_state"
    cat "$work/slasim-quick-merge-$merge.out"
    same_as_local "$work/quick.sqlite"
}

# ---------------------------------------------------------------- run 1
step "1. emit, sbatch, 4 array tasks + merge"
work1="$tmp/run 1: it's \"quick\" #1 \$HOME 100%"
script1="$(emit "$work1")"
grep -E '^#SBATCH' "$script1"
array1="$(sbatch --parsable "$script1" | cut -d';' -f1)"
echo "submitted array job $array1"
completes "$work1" "$array1"

# ---------------------------------------------------------------- run 2
step "2. task 2 cancelled: no merge; resubmission simulates only shard 2"
work2="$tmp/run 2: it's \"quick\" #2 \$HOME 100%"
script2="$(emit "$work2")"
array2="$(sbatch --parsable --hold "$script2" | cut -d';' -f1)"
echo "submitted array job $array2 held: $(squeue -h -r -j "$array2" -o '%i:%T(%r)' | paste -sd' ')"
scancel "${array2}_2"
echo "scancel ${array2}_2; still queued: $(squeue -h -r -j "$array2" -o '%i:%T(%r)' | paste -sd' ')"
scontrol release "$array2"
wait_array "$array2"
merge2="$(merge_job "$work2" "$array2")"
# afterok can never be met: --kill-on-invalid-dep=yes makes Slurm cancel the
# merge job; if it only stays pending (DependencyNeverSatisfied), cancel it here.
merge2_state="" merge2_reason=""
for _ in $(seq 1 60); do
    merge2_state="$(records "$merge2" | field JobState)" merge2_reason="$(records "$merge2" | field Reason)"
    [[ "$merge2_state" =~ $terminal ]] && break
    ((SECONDS < deadline)) || break
    sleep 1
done
show_array "$array2"
task2_state="$(task_state "$array2" 2)"
echo "  array $array2 task 2: ${task2_state:-no record left (cancelled while pending)}"
echo "  merge job $merge2 (afterok:$array2): $merge2_state reason $merge2_reason"
for task in 1 3 4; do
    [[ "$(task_state "$array2" "$task")" == COMPLETED ]] || fail "array $array2 task $task did not complete"
done
case "$merge2_state" in
    CANCELLED) ;;
    PENDING)
        [[ "$merge2_reason" == DependencyNeverSatisfied ]] || fail "merge job $merge2 pending for $merge2_reason"
        scancel "$merge2"
        echo "  merge job $merge2 cancelled by the test: $(wait_job "$merge2")"
        ;;
    *) fail "merge job $merge2 ended $merge2_state although task 2 was cancelled" ;;
esac
[[ ! -e "$work2/quick.sqlite" && ! -e "$work2/slasim-quick-merge-$merge2.out" ]] || fail "merge job $merge2 ran"
[[ ! -e "$work2/quick.shard-2-of-4.sqlite" ]] || fail "shard 2 has a store although its task was cancelled"
echo "no merged store, no merge log; shard stores: $(cd "$work2" && ls quick.shard-*.sqlite | paste -sd' ')"

step "2b. the same script submitted again"
array3="$(sbatch --parsable "$script2" | cut -d';' -f1)"
echo "submitted array job $array3"
completes "$work2" "$array3"
for task in 1 2 3 4; do
    log="$work2/slasim-quick-${array3}_$task.out"
    line="$(grep -E 'already there' "$log")" || fail "no summary line in $log"
    echo "  task $task: ${line##*: }"
    mine="$(grep -oE 'shard [0-9]+/4: [0-9]+ points' "$log" | grep -oE '[0-9]+ points' | cut -d' ' -f1)"
    if [[ $task == 2 ]]; then want="0 already there, $mine simulated now"; else want="$mine already there, 0 simulated now"; fi
    [[ "$line" == *": $want "* ]] || fail "task $task: expected '$want' in: $line"
done

# ---------------------------------------------------------------- run 3
step "3. a provisioning config: emit, sbatch, 2 array tasks + merge"
work3="$tmp/run 3"
mkdir -p "$work3"
prov="$work3/provisioning-tiny.toml"
cat >"$prov" <<'TOML'
name = "provisioning-tiny"

[provision]
method = "moga"
submissions = 2
tasks = 20
task_processors = 8
alphas = [0.0, 1.0]
moga = { population = 10, generations = 2, sigma_share = 0.041 }
fork_window_days = 10.0

[[sweep]]
name = "seeds"
[sweep.axes]
seed = [1, 2, 3, 4]
TOML
"$slasim" sweep "$prov" --emit-slurm 2 --db "$work3/prov.sqlite" --cpus-per-task 1 --time 10:00 \
    --partition "$partition" --account slasimtest >&2
script3="$work3/slasim-provisioning-tiny.sbatch"
array4="$(sbatch --parsable "$script3" | cut -d';' -f1)"
echo "submitted array job $array4"
wait_array "$array4"
log="$work3/slasim-provisioning-tiny-${array4}_1.out"
[[ -s "$log" ]] || fail "task 1 of array $array4 wrote no log at $log"
merge4="$(head -n1 "$log" | cut -d';' -f1)"
[[ "$merge4" =~ ^[0-9]+$ ]] || fail "task 1 of array $array4 did not submit the merge job: $(cat "$log")"
merge4_state="$(wait_job "$merge4")"
show_array "$array4"
echo "  merge job $merge4 (afterok:$array4): $merge4_state"
for task in 1 2; do
    [[ "$(task_state "$array4" "$task")" == COMPLETED ]] || fail "array $array4 task $task did not complete"
done
[[ "$merge4_state" == COMPLETED ]] || fail "merge job $merge4 ended $merge4_state"
"$slasim" sweep "$prov" --db "$tmp/prov-local.sqlite" --no-progress >/dev/null
for table in provision_points provision_sites provision_submissions; do
    cols="$(csv "$tmp/prov-local.sqlite" "SELECT name FROM pragma_table_info('$table') WHERE name NOT IN ('wall_seconds', 'code_version')" | tail -n +2 | paste -sd,)"
    a="$(csv "$work3/prov.sqlite" "SELECT $cols FROM $table ORDER BY 1, 2, 3")"
    b="$(csv "$tmp/prov-local.sqlite" "SELECT $cols FROM $table ORDER BY 1, 2, 3")"
    [[ "$a" == "$b" ]] || fail "table $table of the merged provisioning store differs from the local sweep's"
    echo "  $table: $(($(wc -l <<<"$a") - 1)) rows, equal to the local sweep"
done

echo
echo "slurm test passed in $((SECONDS - started)) s"
scale_out_passed=1 # the accounting test runs next, from cleanup
