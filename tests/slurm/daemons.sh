# Sourced by the Slurm tests: munged (run.sh, accounting.sh, cluster.sh), a
# private MariaDB and slurmdbd.conf (accounting.sh, cluster.sh), all under
# $tmp. Each daemon's pid is appended to `pids`, which the caller's cleanup
# stops. Needs tmp, pids, fail and have (and db_port and dbd_port for the
# last two); sets socket, db_socket and db_password.

# munged with a fresh key; its socket in $tmp/munge.
start_munged() {
    key="$tmp/key/munge.key"
    if have mungekey; then mungekey --create --bits=1024 --keyfile="$key"; else dd if=/dev/urandom of="$key" bs=1 count=1024 status=none; fi
    chmod 400 "$key"
    socket="$tmp/munge/munge.socket"
    munged --foreground --socket="$socket" --key-file="$key" --pid-file="$tmp/munge/munged.pid" \
        --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/log/munged.log" >"$tmp/log/munged.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 50); do [[ -S "$socket" ]] && break; sleep 0.1; done
    [[ -S "$socket" ]] || fail "munged did not create $socket"
}

# MariaDB: a fresh data directory, TCP on 127.0.0.1 only, a user for slurmdbd.
start_mariadb() {
    mariadb-install-db --no-defaults --datadir="$tmp/db" --user=root --auth-root-authentication-method=normal \
        --skip-test-db >"$tmp/log/mariadb-install.out" 2>&1 || fail "mariadb-install-db failed (see $tmp/log/mariadb-install.out)"
    db_socket="$tmp/mariadb.sock"
    mariadbd --no-defaults --datadir="$tmp/db" --user=root --bind-address=127.0.0.1 --port="$db_port" \
        --socket="$db_socket" --pid-file="$tmp/mariadb.pid" --log-error="$tmp/log/mariadb.log" --skip-name-resolve \
        --innodb-buffer-pool-size=64M --innodb-log-file-size=16M >"$tmp/log/mariadb.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do [[ -S "$db_socket" ]] && break; sleep 0.2; done
    [[ -S "$db_socket" ]] || fail "MariaDB did not create $db_socket within 20 s"
    db_password="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    mariadb --no-defaults --socket="$db_socket" -uroot -e \
        "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$db_password';
         GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';" || fail "cannot create the slurmdbd database user"
}

# $tmp/slurmdbd.conf, for slurmdbd on 127.0.0.1:$dbd_port.
write_slurmdbd_conf() {
cat >"$tmp/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbd_port
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$db_port
StorageUser=slurm
StoragePass=$db_password
StorageLoc=slurm_acct_db
PidFile=$tmp/slurmdbd.pid
LogFile=$tmp/log/slurmdbd.log
EOF
chmod 600 "$tmp/slurmdbd.conf"
}
