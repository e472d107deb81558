#!/usr/bin/env bash
# Scale-out tested on a real Slurm: a private single-node cluster (munged,
# slurmctld, slurmd from Debian's slurm-wlm and munge) on 127.0.0.1, with its
# config, key, sockets, state and logs in one temporary directory.
# (tests/slurm/cluster.sh runs step 1 across the nodes of a multi-node
# cluster; both source tests/slurm/sweep.sh.)
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
MaxArraySize=5
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
# emit, wait_array, show_array, task_state, merge_job, wait_job, csv,
# local_reference, same_as_local, completes (tests/slurm/sweep.sh).
sweep_tmp="$tmp" sweep_partition="$partition" sweep_account=slasimtest sweep_cpus=1
deadline=$((SECONDS + 600)) budget="10-minute budget" # all waiting for jobs together: at most 10 minutes
. "$root/tests/slurm/sweep.sh"
local_reference

# Work directories with blanks, quotes, '#', '$' and '%' in their names: the
# script must quote every path for sbatch and for the shell.
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

# ---------------------------------------------------------------- run 4
step "2c. a site's limits: 12 shards under MaxArraySize=5 (read with scontrol) and MaxSubmitJobs=4"
work5="$tmp/run 2c"
if "$slasim" sweep "$config" --emit-slurm 12 --db "$work5/x.sqlite" --max-submit-jobs 1 --script "$work5/x.sbatch" >"$tmp/limit.out" 2>&1; then
    fail "--max-submit-jobs 1 was accepted"
fi
grep -q 'MaxSubmitJobs must be at least 2' "$tmp/limit.out" || fail "--max-submit-jobs 1 refused without naming the limit: $(cat "$tmp/limit.out")"
echo "slasim sweep configs/quick.toml --emit-slurm 12 --max-submit-jobs 1  ->  $(head -n1 "$tmp/limit.out")"
script5="$(emit "$work5" 12 --max-submit-jobs 4)"
grep -qx '#SBATCH --array=1-3' "$script5" || fail "12 shards under MaxArraySize=5, MaxSubmitJobs=4 are not 3 array tasks: $(grep -E '^#SBATCH --array' "$script5")"
grep -E '^#SBATCH --array|^# .*MaxArraySize' "$script5"
# Task 2 cancelled while held: no merge; the resubmission runs its shards
# (2, 5, 8, 11) and the merge equals the local sweep.
array5="$(sbatch --parsable --hold "$script5" | cut -d';' -f1)"
scancel "${array5}_2"
scontrol release "$array5"
most=0
watch_queue() { # waits for array $1 to leave the queue; MOST: the most jobs queued at once
    local queued
    while [[ -n "$(squeue -h -r -j "$1" -o '%i' 2>/dev/null)" ]]; do
        queued="$(squeue -h -r -u root -o '%i' | wc -l)"
        ((queued > most)) && most=$queued
        ((SECONDS < deadline)) || fail "array $1 still queued after the $budget"
        sleep 0.5
    done
}
watch_queue "$array5"
merge5="$(merge_job "$work5" "$array5")"
for _ in $(seq 1 60); do
    state="$(records "$merge5" | field JobState)"
    [[ "$state" =~ $terminal ]] && break
    [[ "$(records "$merge5" | field Reason)" == DependencyNeverSatisfied ]] && { scancel "$merge5"; break; }
    sleep 1
done
[[ ! -e "$work5/quick.sqlite" ]] || fail "merge job $merge5 ran although task 2 was cancelled"
for shard in 2 5 8 11; do
    [[ ! -e "$work5/quick.shard-$shard-of-12.sqlite" ]] || fail "shard $shard has a store although task 2 was cancelled"
done
echo "task 2 cancelled: no merged store, shards 2, 5, 8, 11 not run; at most $most jobs queued at once"
array6="$(sbatch --parsable "$script5" | cut -d';' -f1)"
echo "submitted array job $array6 again"
watch_queue "$array6"
((most <= 4)) || fail "$most jobs were queued at once, more than MaxSubmitJobs=4"
completes "$work5" "$array6" 3
for task in 1 2 3; do
    log="$work5/slasim-quick-${array6}_$task.out"
    simulated="$(grep -oE '[0-9]+ simulated now' "$log" | awk '{ n += $1 } END { print n + 0 }')"
    echo "  task $task ran $(grep -c 'already there' "$log") shards, simulating $simulated points"
    if [[ $task == 2 ]]; then ((simulated > 0)) || fail "task 2 simulated nothing on resubmission"; else ((simulated == 0)) || fail "task $task simulated $simulated points again"; fi
done
echo "at most $most jobs queued at once (MaxSubmitJobs=4)"

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
