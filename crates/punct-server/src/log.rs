//! The one logging path: every operational event of the server and its
//! store (a failed save, a lost claim, a database that stopped answering)
//! is a `tracing` event, written here to stderr as one line
//! `punct serve: <message>`. Tokens and invite codes are never logged.

use std::fmt;
use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, MakeWriter};
use tracing_subscriber::registry::LookupSpan;

/// One line per event: the prefix, the message and any fields.
struct Line;

impl<S, N> FormatEvent<S, N> for Line
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write!(writer, "punct serve: ")?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// The subscriber that writes events of INFO and above to `writer`.
fn subscriber<W>(writer: W) -> impl Subscriber + Send + Sync
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .event_format(Line)
        .with_writer(writer)
        .with_max_level(tracing::Level::INFO)
        .finish()
}

/// Sends the events of this process to stderr (once; a second call, or a
/// program that installed its own subscriber, keeps the first).
pub(crate) fn init() {
    let _ = tracing::subscriber::set_global_default(subscriber(std::io::stderr));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn an_event_is_one_line_with_the_servers_prefix() {
        let lines = Arc::new(Mutex::new(Vec::<u8>::new()));
        let sink = lines.clone();
        let writer = move || Sink(sink.clone());
        tracing::subscriber::with_default(subscriber(writer), || {
            tracing::warn!("game {}: saving the AI's move: {}", "abc", "disk full");
            tracing::debug!("not written: below INFO");
            tracing::info!("migrated database");
        });
        let text = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "punct serve: game abc: saving the AI's move: disk full\n\
             punct serve: migrated database\n"
        );
    }

    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
