//! Embeds the git commit in the binary's code version (stored with every run).
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    // Rebuild when this checkout's commit changes: its HEAD and the branch it
    // points to, not every ref (a commit on another worktree's branch).
    let path = |p: &str| git(&["rev-parse", "--git-path", p]);
    // A missing path would rerun the script on every build: only existing
    // ones, and the branches' folder while the branch is only packed.
    let mut watched = vec![path("HEAD"), path("packed-refs")];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|b| path(&b)) {
        let loose = std::path::Path::new(&branch);
        if loose.exists() {
            watched.push(Some(branch));
        } else {
            watched.push(loose.parent().map(|d| d.display().to_string()));
        }
    }
    for p in watched.into_iter().flatten().filter(|p| std::path::Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={p}");
    }
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=SLASIM_GIT_COMMIT={commit}");
}
