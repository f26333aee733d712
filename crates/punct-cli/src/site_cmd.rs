//! `punct site --out DIR`: the site as static files (docs/SITE.md) for
//! any static file host: play the AI and at one screen, the analysis
//! board, the editor, the rules, the lessons and the puzzles, all run by
//! the page's own module, with no server.

use crate::{failed, Failure};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct SiteArgs {
    /// The directory to write the site into (created if missing; files
    /// of an earlier `punct site` there are replaced)
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: SiteArgs) -> Result<(), Failure> {
    let files = punct_server::static_site().map_err(failed)?;
    let out = &args.out;
    if out.exists() && !out.is_dir() {
        return Err(crate::bad_input(format!(
            "--out {}: not a directory",
            out.display()
        )));
    }
    let mut bytes = 0;
    for (path, content) in &files {
        let target = out.join(path);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| failed(format!("cannot create {}: {e}", dir.display())))?;
        }
        std::fs::write(&target, content)
            .map_err(|e| failed(format!("cannot write {}: {e}", target.display())))?;
        bytes += content.len();
    }
    println!(
        "wrote {} files ({} KB) to {}\n\
         serve it at the root of any static host, e.g.: python3 -m http.server -d {}",
        files.len(),
        bytes / 1024,
        out.display(),
        out.display()
    );
    Ok(())
}
