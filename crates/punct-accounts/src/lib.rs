//! Accounts as plain functions: which user names are allowed and when two
//! are the same ([`name`]), the password policy and how passwords are kept
//! ([`password`]), passkeys: the WebAuthn ceremonies over webauthn-rs and
//! the relying party a site's origin makes ([`passkey`]), and the random
//! secrets and ids of sessions, bots' API tokens and users ([`token`]).
//!
//! No I/O but the OS random generator: no HTTP, no database, no async. The
//! server stores what these functions make and calls them on each request.

pub mod name;
pub mod passkey;
pub mod password;
pub mod token;
