//! `linkbase resolve`. PROVISIONAL: the resolver issue (#2) implements it.

use super::EXIT_OK;
use linkbase::Profile;

/// Arguments of `linkbase resolve`.
#[derive(clap::Args, Debug)]
pub struct ResolveArgs {
    /// Resolution profile.
    #[arg(long, default_value = "rfc3986")]
    profile: Profile,
    /// The base URL.
    base: String,
    /// References to resolve (read from standard input, one a line, when none).
    refs: Vec<String>,
}

/// Run `linkbase resolve`.
pub fn run(args: ResolveArgs) -> i32 {
    let base = linkbase::Base::parse(&args.base, args.profile).expect("provisional");
    for r in &args.refs {
        println!("{}", base.resolve(r).expect("provisional").url);
    }
    EXIT_OK
}
