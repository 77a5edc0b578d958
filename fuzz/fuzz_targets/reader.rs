//! The command line's reader: the input split into records in every mode,
//! each puzzle record parsed.
#![no_main]

#[allow(dead_code)]
#[path = "../../src/bin/lazydoku/input.rs"]
mod input;

use std::io::{BufReader, Read};

use libfuzzer_sys::fuzz_target;
use lazydoku::format::Parser;

fuzz_target!(|data: &[u8]| {
    for mode in [input::Mode::Auto, input::Mode::Line, input::Mode::Grid] {
        let bytes: Box<dyn Read + Send> = Box::new(std::io::Cursor::new(data.to_vec()));
        let mut records = input::Records::new(BufReader::new(bytes), mode, Parser::new());
        let mut count = 0;
        while let Ok(Some(record)) = records.next_record() {
            count += 1;
            assert!(count <= data.len() + 1);
            if let input::Record::Puzzle { text, .. } = record {
                let _ = Parser::new().parse(&text);
            }
        }
    }
});
