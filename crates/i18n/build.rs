//! Writes the index of the catalogues' messages: which English catalogue
//! file (`crates/FOLDER/locales/en/FILE.ftl`) holds each message id, sorted
//! by id, and how many there are. A process then parses only the messages
//! it uses; an index built at run time cost a command-line process as much
//! as the parse it spares. Every language keeps each message in the same file
//! (checked by the crate's tests).

use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let crates = Path::new(&manifest).parent().expect("the crate is in the workspace's crates folder");
    // A catalogue added to the list in lib.rs writes the index again.
    println!("cargo::rerun-if-changed=src/lib.rs");
    let mut file_of_pairs = Vec::new();
    let mut folders: Vec<_> = fs::read_dir(crates).expect("the crates folder").flatten().collect();
    folders.sort_by_key(|entry| entry.file_name());
    for folder in folders {
        let locales = folder.path().join("locales").join("en");
        let Ok(files) = fs::read_dir(&locales) else { continue };
        println!("cargo::rerun-if-changed={}", locales.display());
        for file in files.flatten() {
            let path = file.path();
            let (Some(stem), Some("ftl")) = (path.file_stem(), path.extension().and_then(|e| e.to_str()))
            else {
                continue;
            };
            let text = fs::read_to_string(&path).expect("a catalogue is UTF-8");
            // A message starts its line with its id; comments, terms and a
            // message's further lines start otherwise.
            for line in text.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic())) {
                if let Some((id, _)) = line.split_once('=') {
                    file_of_pairs
                        .push((id.trim_end().to_owned(), format!("en/{}.ftl", stem.to_string_lossy())));
                }
            }
        }
    }
    file_of_pairs.sort();
    // Each message is looked for by its id alone: two with one id would
    // leave one of them never shown.
    if let Some(pair) = file_of_pairs.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        panic!("message {} is in {} and in {}", pair[0].0, pair[0].1, pair[1].1);
    }
    // Offsets into one string rather than a table of `&str`: each of a
    // table's pointers is relocated when the program is loaded, which wrote
    // to (and so copied) every page of a 37 KiB table in every process.
    let mut ids = String::new();
    let mut id_ends = String::new();
    let mut files: Vec<&str> = Vec::new();
    let mut file_of = String::new();
    for (id, file) in &file_of_pairs {
        ids.push_str(id);
        id_ends.push_str(&format!("{},", ids.len()));
        let place = files.iter().position(|f| f == file).unwrap_or_else(|| {
            files.push(file.as_str());
            files.len() - 1
        });
        file_of.push_str(&format!("{place},"));
    }
    assert!(files.len() <= usize::from(u8::MAX), "more catalogue files than a u8 counts");
    let index = format!(
        "/// Every message id, sorted, one after another.\nconst IDS: &str = {ids:?};\n\n\
         /// Where each id of `IDS` ends (it starts where the one before it ends).\n\
         static ID_ENDS: [u32; MESSAGES] = [{id_ends}];\n\n\
         /// The catalogue files, each named by its English path.\nstatic FILES: [&str; {}] = {files:?};\n\n\
         /// Which of `FILES` holds each message.\nstatic FILE_OF: [u8; MESSAGES] = [{file_of}];\n\n\
         /// How many messages each language has.\nconst MESSAGES: usize = {};\n",
        files.len(),
        file_of_pairs.len()
    );
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("file_of.rs");
    fs::write(out, index).expect("the index is written");
}
