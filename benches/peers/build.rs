//! Reads the versions of the engines actually built from the workspace's Cargo.lock, so the
//! benchmark prints them (`PEER_VERSION_<crate>`).

fn main() {
    let lock = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    for krate in [
        "sweep2d",
        "rapier2d-f64",
        "parry2d-f64",
        "boxdd",
        "boxdd-sys",
    ] {
        let needle = format!("name = \"{krate}\"\nversion = \"");
        let version = text
            .find(&needle)
            .map(|i| &text[i + needle.len()..])
            .and_then(|rest| rest.split('"').next())
            .unwrap_or("unknown");
        let var = krate.replace('-', "_").to_uppercase();
        println!("cargo:rustc-env=PEER_VERSION_{var}={version}");
    }
}
