//! The connection to an external scheduler: a ZeroMQ REQ socket on its own
//! thread, and the scheduler process slasim may start for a point.
//!
//! Reference: Batsim's protocol documentation (oar-team/batsim,
//! `docs/protocol.rst`): the simulator holds a ZeroMQ REQ socket and connects
//! to the scheduler's REP socket; every request gets exactly one reply.
//!
//! Contract:
//! - The socket lives on a dedicated thread with its own single-threaded
//!   tokio runtime (the `zeromq` crate is async); the simulation thread talks
//!   to it through channels, so no simulation runtime is ever blocked on from
//!   inside. [`Link::request`] returns the reply, or an error when none came
//!   within the timeout, when the connection broke, or when the scheduler
//!   process (if slasim started it) exited — it never hangs.
//! - [`Launched`] starts a command template with `{port}` replaced by a free
//!   TCP port on 127.0.0.1 (ports handed out in this process are not handed
//!   out twice while in use), keeps the tail of its standard error for error
//!   messages, and kills the process when dropped unless it exited by itself.
//!   A process that dies because its port was taken meanwhile is started again
//!   on another port (three tries).
//! - Only `tcp://HOST:PORT` endpoints are supported.

use slasim_core::units::seconds;
use std::collections::HashSet;
use std::io::Read;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use zeromq::{ReqSocket, Socket, SocketRecv, SocketSend, ZmqMessage};

/// Why the scheduler could not be reached or did not answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// No reply (or no connection) within the timeout.
    #[error("the scheduler did not answer within {}", seconds(format_args!("{:.1}", .0)))]
    Timeout(f64),
    /// The scheduler process exited.
    #[error("the scheduler process exited ({status}){stderr}")]
    Exited { status: String, stderr: String },
    /// Anything else: a refused connection, a broken socket, a bad endpoint.
    #[error("{0}")]
    Other(String),
}

/// The tail of a process's standard error, shown in errors.
type Tail = Arc<Mutex<Vec<u8>>>;

const TAIL_BYTES: usize = 4096;

fn tail_text(tail: &Tail) -> String {
    let bytes = tail.lock().map(|t| t.clone()).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    if text.is_empty() { String::new() } else { format!("; its last words on stderr:\n{text}") }
}

/// Ports this process has handed to schedulers it started and not yet released.
fn ports_in_use() -> &'static Mutex<HashSet<u16>> {
    static PORTS: OnceLock<Mutex<HashSet<u16>>> = OnceLock::new();
    PORTS.get_or_init(|| Mutex::new(HashSet::new()))
}

/// A free TCP port on 127.0.0.1 that no other scheduler of this process holds.
fn free_port() -> Result<u16, LinkError> {
    for _ in 0..64 {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| LinkError::Other(format!("no free port: {e}")))?;
        let port = listener.local_addr().map_err(|e| LinkError::Other(format!("no free port: {e}")))?.port();
        drop(listener);
        if let Ok(mut used) = ports_in_use().lock()
            && used.insert(port)
        {
            return Ok(port);
        }
    }
    Err(LinkError::Other("no free port after 64 tries".into()))
}

/// A scheduler process started for one point.
pub struct Launched {
    child: Child,
    port: u16,
    stderr: Tail,
    command: String,
}

impl Launched {
    /// Starts `template` (a shell command with `{port}`) on a free port.
    pub fn start(template: &str) -> Result<Launched, LinkError> {
        if !template.contains("{port}") {
            return Err(LinkError::Other(format!(
                "the scheduler command `{template}` has no {{port}} placeholder for the port it must listen on"
            )));
        }
        let port = free_port()?;
        let command = template.replace("{port}", &port.to_string());
        // `exec`: the shell becomes the scheduler, so killing the child kills it.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| LinkError::Other(format!("cannot start `{command}`: {e}")))?;
        let stderr: Tail = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            // Drained on its own thread so a chatty scheduler never blocks on a full pipe.
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.extend_from_slice(&buf[..n]);
                        if t.len() > 2 * TAIL_BYTES {
                            let cut = t.len() - TAIL_BYTES;
                            t.drain(..cut);
                        }
                    }
                }
            });
        }
        tracing::debug!(%command, port, "scheduler started");
        Ok(Launched { child, port, stderr, command })
    }

    /// The endpoint to connect to.
    pub fn endpoint(&self) -> String {
        format!("tcp://127.0.0.1:{}", self.port)
    }

    /// The command as started.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// An error if the process has exited.
    pub fn check(&mut self) -> Result<(), LinkError> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(status)) => {
                // Give the stderr reader a moment to take the last words.
                std::thread::sleep(Duration::from_millis(20));
                Err(LinkError::Exited { status: status.to_string(), stderr: tail_text(&self.stderr) })
            }
            Err(e) => Err(LinkError::Other(format!("cannot watch the scheduler process: {e}"))),
        }
    }

    /// Waits up to `grace` for the process to exit by itself, then kills it.
    pub fn stop(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn port_taken(&self) -> bool {
        let text = tail_text(&self.stderr);
        text.contains("Address already in use") || text.contains("EADDRINUSE")
    }
}

impl Drop for Launched {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        if let Ok(mut used) = ports_in_use().lock() {
            used.remove(&self.port);
        }
    }
}

/// `host:port` of a `tcp://host:port` endpoint (`*` is read as 127.0.0.1).
fn tcp_address(endpoint: &str) -> Result<std::net::SocketAddr, LinkError> {
    let rest = endpoint.strip_prefix("tcp://").ok_or_else(|| {
        LinkError::Other(format!("endpoint `{endpoint}`: only tcp://HOST:PORT endpoints are supported"))
    })?;
    let rest = rest.replacen('*', "127.0.0.1", 1);
    rest.to_socket_addrs()
        .map_err(|e| LinkError::Other(format!("endpoint `{endpoint}`: {e}")))?
        .next()
        .ok_or_else(|| LinkError::Other(format!("endpoint `{endpoint}`: no address")))
}

/// A REQ socket connected to a scheduler, owned by its own thread.
pub struct Link {
    requests: Option<Sender<String>>,
    replies: Receiver<Result<String, LinkError>>,
    thread: Option<JoinHandle<()>>,
    timeout: Duration,
    process: Option<Launched>,
    /// Messages exchanged.
    pub exchanged: u64,
}

impl Link {
    /// Starts `template` on a free port and connects to it.
    pub fn launch(template: &str, timeout: Duration) -> Result<Link, LinkError> {
        let mut last = LinkError::Other("not started".into());
        for _ in 0..3 {
            let mut process = Launched::start(template)?;
            let endpoint = process.endpoint();
            match Link::connect_to(&endpoint, timeout, Some(&mut process)) {
                Ok(mut link) => {
                    tracing::info!(command = process.command(), "scheduler listening");
                    link.process = Some(process);
                    return Ok(link);
                }
                Err(e) if process.port_taken() => last = e,
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    /// Connects to a scheduler already listening at `endpoint`.
    pub fn connect(endpoint: &str, timeout: Duration) -> Result<Link, LinkError> {
        Link::connect_to(endpoint, timeout, None)
    }

    fn connect_to(endpoint: &str, timeout: Duration, mut process: Option<&mut Launched>) -> Result<Link, LinkError> {
        let address = tcp_address(endpoint)?;
        // Wait until something listens (a started scheduler takes a moment),
        // watching the process: the socket library's own retries back off by
        // seconds.
        let until = Instant::now() + timeout;
        loop {
            if let Some(p) = process.as_deref_mut() {
                p.check()?;
            }
            match TcpStream::connect_timeout(&address, Duration::from_millis(200)) {
                Ok(_) => break,
                Err(e) if Instant::now() >= until => {
                    return Err(LinkError::Other(format!(
                        "nothing listens at {endpoint} after {} ({e})",
                        seconds(format_args!("{:.1}", timeout.as_secs_f64()))
                    )));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        let (request_tx, request_rx) = mpsc::channel::<String>();
        let (reply_tx, reply_rx) = mpsc::channel::<Result<String, LinkError>>();
        let endpoint_owned = endpoint.to_string();
        let thread = std::thread::Builder::new()
            .name("batsim-link".into())
            .spawn(move || serve(&endpoint_owned, timeout, request_rx, reply_tx))
            .map_err(|e| LinkError::Other(format!("cannot start the socket thread: {e}")))?;
        let mut link = Link {
            requests: Some(request_tx),
            replies: reply_rx,
            thread: Some(thread),
            timeout,
            process: None,
            exchanged: 0,
        };
        // The thread answers once connected.
        link.wait(process)?;
        Ok(link)
    }

    fn wait(&mut self, mut process: Option<&mut Launched>) -> Result<String, LinkError> {
        let until = Instant::now() + self.timeout + Duration::from_millis(500);
        loop {
            match self.replies.recv_timeout(Duration::from_millis(20)) {
                Ok(reply) => return reply,
                Err(RecvTimeoutError::Timeout) => {
                    let p = process.as_deref_mut().or(self.process.as_mut());
                    if let Some(p) = p {
                        p.check()?;
                    }
                    if Instant::now() >= until {
                        return Err(LinkError::Timeout(self.timeout.as_secs_f64()));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    if let Some(p) = self.process.as_mut() {
                        p.check()?;
                    }
                    return Err(LinkError::Other("the socket thread stopped".into()));
                }
            }
        }
    }

    /// Sends one message and returns the reply.
    pub fn request(&mut self, message: String) -> Result<String, LinkError> {
        let sent = self.requests.as_ref().is_some_and(|tx| tx.send(message).is_ok());
        if !sent {
            if let Some(p) = self.process.as_mut() {
                p.check()?;
            }
            return Err(LinkError::Other("the connection to the scheduler is closed".into()));
        }
        let reply = match self.wait(None) {
            Ok(r) => r,
            // A broken connection is most often a scheduler that died: say so.
            Err(LinkError::Other(e)) => return Err(self.exit_or(LinkError::Other(e))),
            Err(e) => return Err(e),
        };
        self.exchanged += 1;
        Ok(reply)
    }

    /// The process's exit if it exits within a second, else `error`.
    fn exit_or(&mut self, error: LinkError) -> LinkError {
        let Some(p) = self.process.as_mut() else { return error };
        let until = Instant::now() + Duration::from_secs(1);
        while Instant::now() < until {
            if let Err(exited) = p.check() {
                return exited;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        error
    }

    /// Closes the socket; a started scheduler gets `grace` to exit, then is killed.
    pub fn close(&mut self, grace: Duration) {
        self.requests = None;
        if let Some(p) = self.process.as_mut() {
            p.stop(grace);
        }
        // The thread ends once the request channel is closed (it waits at most
        // its timeout for a reply that will not come).
        if let Some(t) = self.thread.take()
            && t.is_finished()
        {
            let _ = t.join();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.close(Duration::ZERO);
    }
}

/// The socket thread: connects, reports it, then relays requests and replies.
fn serve(endpoint: &str, timeout: Duration, requests: Receiver<String>, replies: Sender<Result<String, LinkError>>) {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            let _ = replies.send(Err(LinkError::Other(format!("cannot start the socket runtime: {e}"))));
            return;
        }
    };
    runtime.block_on(async move {
        let mut socket = ReqSocket::new();
        let connected = tokio::time::timeout(timeout, socket.connect(endpoint)).await;
        let ready = match connected {
            Ok(Ok(())) => Ok(String::new()),
            Ok(Err(e)) => Err(LinkError::Other(format!("cannot connect to {endpoint}: {e}"))),
            Err(_) => Err(LinkError::Timeout(timeout.as_secs_f64())),
        };
        let failed = ready.is_err();
        if replies.send(ready).is_err() || failed {
            return;
        }
        while let Ok(text) = requests.recv() {
            let reply = async {
                socket.send(ZmqMessage::from(text)).await.map_err(|e| LinkError::Other(format!("send failed: {e}")))?;
                let message = socket.recv().await.map_err(|e| LinkError::Other(format!("receive failed: {e}")))?;
                let frames = message.into_vec();
                let mut bytes = Vec::new();
                for frame in frames {
                    bytes.extend_from_slice(&frame);
                }
                String::from_utf8(bytes).map_err(|_| LinkError::Other("the reply is not UTF-8 text".into()))
            };
            let result = match tokio::time::timeout(timeout, reply).await {
                Ok(r) => r,
                Err(_) => Err(LinkError::Timeout(timeout.as_secs_f64())),
            };
            let stop = result.is_err();
            if replies.send(result).is_err() || stop {
                return;
            }
        }
    });
}
