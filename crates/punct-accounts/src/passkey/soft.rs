//! A software passkey for tests (feature `soft-passkey`; never in the
//! binary): webauthn-authenticator-rs's `SoftPasskey` makes real keys and
//! signs real answers, with the browser's part around it (the client
//! data with the page's origin, the checks of the origin against the
//! relying party) from its `WebauthnAuthenticator`.
//!
//! `SoftPasskey` keeps no resident keys and returns no user handle, so
//! this device does what a platform passkey does on top, at the JSON
//! level a browser hands the page: it remembers each credential it made
//! with its site and user handle, refuses to register twice for a site
//! that excludes one it holds, and answers a discoverable request (no
//! credentials listed) with one it holds for the site, user handle
//! included. The user handle is not signed in WebAuthn, so nothing the
//! server checks is made up here.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};
use webauthn_authenticator_rs::softpasskey::SoftPasskey;
use webauthn_authenticator_rs::WebauthnAuthenticator;
use webauthn_rs::prelude::{CreationChallengeResponse, RequestChallengeResponse, Url};

/// A credential the device made.
#[derive(Clone, Debug)]
pub struct Held {
    /// The relying party's id (the site's host name).
    pub site: String,
    /// The credential's id, base64url.
    pub id: String,
    /// The user handle the site gave, base64url.
    pub user: String,
}

/// A software authenticator with its browser, holding passkeys.
pub struct SoftDevice {
    key: SoftPasskey,
    held: Vec<Held>,
}

impl Default for SoftDevice {
    fn default() -> Self {
        SoftDevice::new()
    }
}

impl SoftDevice {
    pub fn new() -> SoftDevice {
        SoftDevice {
            // `true`: it says it verified its user (a PIN, a fingerprint),
            // as a passkey does; the server requires that.
            key: SoftPasskey::new(true),
            held: Vec::new(),
        }
    }

    /// The credentials made so far, oldest first.
    pub fn held(&self) -> &[Held] {
        &self.held
    }

    /// `navigator.credentials.create({publicKey})` on a page of `origin`,
    /// with the options a server sent (`{"publicKey": {…}}`): the new
    /// credential as the page sends it back (`credential.toJSON()`).
    pub fn create(&mut self, origin: &str, options: &Value) -> Result<Value, String> {
        let mut options = options.clone();
        let public = &mut options["publicKey"];
        let site = public["rp"]["id"].as_str().unwrap_or_default().to_string();
        let user = public["user"]["id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let excluded: Vec<&str> = public["excludeCredentials"]
            .as_array()
            .map(|all| all.iter().filter_map(|c| c["id"].as_str()).collect())
            .unwrap_or_default();
        if self
            .held
            .iter()
            .any(|h| h.site == site && excluded.contains(&h.id.as_str()))
        {
            return Err("InvalidStateError: this device holds a passkey the site excludes".into());
        }
        // The device keeps the key (`held`): SoftPasskey need not.
        if let Some(selection) = public.get_mut("authenticatorSelection") {
            selection["requireResidentKey"] = json!(false);
            if let Some(s) = selection.as_object_mut() {
                s.remove("residentKey");
            }
        }
        let options: CreationChallengeResponse =
            serde_json::from_value(options).map_err(|e| format!("the options: {e}"))?;
        let url = Url::parse(origin).map_err(|e| format!("origin {origin}: {e}"))?;
        let answer = self
            .key
            .do_registration(url, options)
            .map_err(|e| format!("the authenticator refused: {e:?}"))?;
        let answer = serde_json::to_value(&answer).map_err(|e| e.to_string())?;
        let id = answer["rawId"].as_str().unwrap_or_default().to_string();
        self.held.push(Held { site, id, user });
        Ok(answer)
    }

    /// `navigator.credentials.get({publicKey})` on a page of `origin`:
    /// the assertion as the page sends it back, made with the newest
    /// credential this device holds for the site (of those listed, if
    /// the request lists any).
    pub fn get(&mut self, origin: &str, options: &Value) -> Result<Value, String> {
        self.get_with(origin, options, None)
    }

    /// [`SoftDevice::get`] with the credential `id` (as the user picks
    /// one of several in the browser's dialog).
    pub fn get_with(
        &mut self,
        origin: &str,
        options: &Value,
        id: Option<&str>,
    ) -> Result<Value, String> {
        let mut options = options.clone();
        let public = &mut options["publicKey"];
        let site = public["rpId"].as_str().unwrap_or_default().to_string();
        let listed: Vec<String> = public["allowCredentials"]
            .as_array()
            .map(|all| {
                all.iter()
                    .filter_map(|c| c["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let held = self
            .held
            .iter()
            .rev()
            .find(|h| {
                h.site == site
                    && (listed.is_empty() || listed.contains(&h.id))
                    && id.is_none_or(|id| h.id == id)
            })
            .cloned()
            .ok_or_else(|| format!("NotAllowedError: no passkey for {site} on this device"))?;
        // SoftPasskey finds its key among those listed.
        public["allowCredentials"] = json!([{"type": "public-key", "id": held.id}]);
        let options: RequestChallengeResponse =
            serde_json::from_value(options).map_err(|e| format!("the options: {e}"))?;
        let url = Url::parse(origin).map_err(|e| format!("origin {origin}: {e}"))?;
        let answer = self
            .key
            .do_authentication(url, options)
            .map_err(|e| format!("the authenticator refused: {e:?}"))?;
        let mut answer = serde_json::to_value(&answer).map_err(|e| e.to_string())?;
        answer["response"]["userHandle"] = json!(held.user);
        Ok(answer)
    }
}

/// A base64url text's bytes (tests compare handles with it).
pub fn decode(text: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(text).unwrap_or_default()
}
