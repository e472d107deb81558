# shellcheck shell=bash disable=SC2154 # slasim, config, sweep_*, deadline, budget: set by the caller
# Sourced by the Slurm tests that run `slasim sweep --emit-slurm` scripts
# (run.sh on one node, cluster.sh across its nodes): emit the script for
# configs/quick.toml in 4 shards, wait for its array tasks and the merge job
# task 1 submits, and check the merged store against a local sweep.
# Needs fail, slasim, config (configs/quick.toml) and
#   sweep_tmp        a scratch directory for the local sweep and the CSVs
#   sweep_partition  sweep_account  sweep_cpus   what emit passes to
#                    --partition, --account and --cpus-per-task
#   deadline         the end of the time budget for all waiting, in $SECONDS,
#   budget           and its words ("10-minute budget") for the messages.

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
        ((SECONDS < deadline)) || fail "array job $1 still running after the $budget"
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
        ((SECONDS < deadline)) || fail "job $1 still ${s:-unknown} after the $budget"
        sleep 1
    done
}
emit() { # work dir [shards [more sweep flags]]; writes the script there, prints its path
    local work="$1" shards="${2:-4}"
    mkdir -p "$work"
    "$slasim" sweep "$config" --emit-slurm "$shards" --db "$work/quick.sqlite" --cpus-per-task "$sweep_cpus" --time 10:00 \
        --partition "$sweep_partition" --account "$sweep_account" "${@:3}" >&2
    echo "$work/slasim-quick.sbatch"
}
csv() { "$slasim" query --db "$1" --csv "$2"; }

# The reference: the same config swept locally.
local_reference() {
    local_db="$sweep_tmp/local.sqlite"
    "$slasim" sweep "$config" --db "$local_db" --no-progress >/dev/null
    csv "$local_db" "SELECT * FROM jobs ORDER BY run_id, job" >"$sweep_tmp/local-jobs.csv"
    columns="$(csv "$local_db" "SELECT name FROM pragma_table_info('points') WHERE name <> 'wall_seconds'" | tail -n +2 | paste -sd,)"
    [[ -n "$columns" ]] || fail "cannot list the columns of points"
    points_query="SELECT $columns FROM points ORDER BY run_id"
    csv "$local_db" "$points_query" >"$sweep_tmp/local-points.csv"
}
same_as_local() { # merged store $1 equals the local sweep, point for point and job for job
    local merged="$1" a b
    a="$(csv "$merged" "SELECT count(*) FROM points" | tail -n1)"
    b="$(csv "$local_db" "SELECT count(*) FROM points" | tail -n1)"
    [[ "$a" == "$b" ]] || fail "merged store has $a points, the local sweep $b"
    csv "$merged" "SELECT * FROM jobs ORDER BY run_id, job" >"$sweep_tmp/merged-jobs.csv"
    cmp -s "$sweep_tmp/merged-jobs.csv" "$sweep_tmp/local-jobs.csv" ||
        fail "jobs rows of $merged differ from the local sweep's ($(cmp "$sweep_tmp/merged-jobs.csv" "$sweep_tmp/local-jobs.csv" 2>&1 || true))"
    csv "$merged" "$points_query" >"$sweep_tmp/merged-points.csv"
    cmp -s "$sweep_tmp/merged-points.csv" "$sweep_tmp/local-points.csv" || fail "points rows of $merged differ from the local sweep's"
    echo "equal to the local sweep: $a points; $(($(wc -l <"$sweep_tmp/local-jobs.csv") - 1)) jobs rows (SELECT * FROM jobs ORDER BY run_id, job) byte-identical; points rows (all columns but wall_seconds) byte-identical"
}

# Waits for array job $2 of the script in $1 and its merge job; checks that
# the tasks ($3, default 4) and the merge completed and that the merged store
# equals the local sweep.
completes() {
    local work="$1" array="$2" tasks="${3:-4}" merge merge_state task
    wait_array "$array"
    merge="$(merge_job "$work" "$array")"
    merge_state="$(wait_job "$merge")"
    show_array "$array"
    echo "  merge job $merge (afterok:$array): $merge_state exit $(records "$merge" | field ExitCode)"
    for task in $(seq 1 "$tasks"); do
        [[ "$(task_state "$array" "$task")" == COMPLETED ]] || fail "array $array task $task did not complete"
    done
    [[ "$merge_state" == COMPLETED ]] || fail "merge job $merge ended $merge_state"
    cat "$work/slasim-quick-merge-$merge.out"
    same_as_local "$work/quick.sqlite"
}
