//! The `linkbase` command: see `linkbase --help`.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
