//! Incoming mail: any bytes are read as a message or refused with a clear
//! error, and a readable message is routed through a throwaway service
//! (SQLite in a temporary directory) to an answer that can be sent.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tabula_mail::{MailConfig, MailError, handle_message, html_to_text, read_message};
use tabula_service::store::{Clients, SqliteStore};
use tabula_service::{Clock, Service};

struct World {
    runtime: tokio::runtime::Runtime,
    service: Service,
    config: MailConfig,
    _dir: tempfile::TempDir,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let dir = tempfile::tempdir().expect("temporary directory");
        let store =
            runtime.block_on(SqliteStore::open(&dir.path().join("fuzz.db"), Clients::Many)).expect("store");
        let service = Service::new(Arc::new(store), Clock::Fixed(1_700_000_000_000));
        let config = MailConfig { address: "tabula@example.org".into(), ..MailConfig::default() };
        World { runtime, service, config, _dir: dir }
    })
}

fuzz_target!(|data: &[u8]| {
    let world = world();
    let _ = html_to_text(&String::from_utf8_lossy(data));
    match read_message(data, &world.config) {
        Ok(incoming) => {
            for command in &incoming.commands {
                assert!(!command.contains(['\n', '\r']), "a command spans lines: {command:?}");
            }
        }
        Err(MailError::TooLarge { .. } | MailError::Unreadable) => {}
        Err(other) => panic!("reading a message failed with {other}"),
    }
    match world.runtime.block_on(handle_message(&world.service, data, &world.config)) {
        Ok(Some(reply)) => {
            assert!(!reply.to.is_empty(), "a reply without an address");
            reply.to_rfc5322(&world.config.address).expect("the reply cannot be built");
        }
        Ok(None) | Err(MailError::TooLarge { .. } | MailError::Unreadable) => {}
        Err(other) => panic!("handling a message failed with {other}"),
    }
});
