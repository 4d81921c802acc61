//! Points where the crash tests stop the process, to show that a crash
//! there loses nothing.

/// The environment variable naming a pause point and a file: the process
/// creates the file when it reaches that point, then waits to be killed.
/// Set only by the tests (`after-commit:/path/to/flag`).
const PAUSE_VAR: &str = "TABULA_TEST_PAUSE";

/// Stop here, if the tests asked for the point `name`: the flag file tells
/// the test that the process got here; it then kills the process.
pub(crate) fn pause_point(name: &str) {
    let Some(value) = std::env::var_os(PAUSE_VAR) else { return };
    let value = value.to_string_lossy();
    let Some((point, flag)) = value.split_once(':') else { return };
    if point != name {
        return;
    }
    if std::fs::write(flag, name).is_err() {
        return;
    }
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
