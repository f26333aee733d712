//! The AI's four levels as bot accounts, so that a rated game against one
//! counts for both sides and the levels end up on the same rating scale as
//! people. Their names (`level1` … `level4`) are reserved for them
//! (`punct-accounts`' reserved list), so no person can pass for one; their
//! rows are made here, by whichever instance gets there first.

use crate::games::{now_ms, Account};
use punct_store::{AccountError, Storage, StoreError, UserRow};

/// The bot account of AI level `level`.
pub(crate) fn account(level: u32) -> Account {
    Account {
        id: format!("ai-level{level}"),
        name: format!("level{level}"),
    }
}

/// Makes level `level`'s bot account if it is not stored yet.
pub(crate) async fn ensure(store: &dyn Storage, level: u32) -> Result<(), StoreError> {
    let bot = account(level);
    if store.accounts().user(&bot.id).await?.is_some() {
        return Ok(());
    }
    let now = now_ms();
    let row = UserRow {
        name_key: punct_accounts::name::key(&bot.name),
        id: bot.id,
        name: bot.name,
        created: now,
        seen: now,
        password: None,
        bot: true,
        deleted: false,
    };
    match store.accounts().create_user(row).await {
        // Another instance made it meanwhile.
        Ok(()) | Err(AccountError::Taken) => Ok(()),
        Err(AccountError::Failed(e)) => Err(e),
    }
}

/// Makes every level's bot account that is missing (at start; a failure
/// is said and tried again when a rated game against the level begins).
pub(crate) async fn ensure_all(store: &dyn Storage) {
    for level in 1..=4 {
        if let Err(e) = ensure(store, level).await {
            tracing::warn!("making the bot account of AI level {level}: {e}");
        }
    }
}
