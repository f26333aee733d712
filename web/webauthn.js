// The browser's side of a passkey (WebAuthn): the server's options, JSON
// with their binary fields in base64url (docs/API.md, "Passkeys"), turned
// into what navigator.credentials.create and .get take; the answer turned
// back into JSON for the finish (credential.toJSON(), or the same by hand
// where the browser has no JSON methods). Its refusals are errors with a
// code the page says in words (error.<code>): a person who cancels gets
// `passkey_cancelled`, not the browser's message.

/** Whether this browser can use passkeys at all (a secure page with WebAuthn). */
export function webAuthnAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** A refusal of the browser's, with a code of the page's own (error.<code>). */
export class PasskeyError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
    this.params = {};
    this.status = 0;
  }
}

/** base64url (padded or not) → ArrayBuffer. */
function fromBase64url(text) {
  const b64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes.buffer;
}

/** ArrayBuffer (or a view) → base64url without padding. */
function toBase64url(buffer) {
  if (buffer == null) return undefined;
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const withIds = (list) => (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));

/** The server's creation options (`options.publicKey`) as the browser takes them. */
function creationOptions(json) {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: withIds(json.excludeCredentials),
  };
}

/** The server's request options (`options.publicKey`) as the browser takes them. */
function requestOptions(json) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

/** The browser's credential as WebAuthn JSON (its own toJSON(), else the same fields by hand). */
function credentialJson(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
}

/** What a DOMException of navigator.credentials means to the person. */
function refusal(e) {
  if (e instanceof PasskeyError) return e;
  switch (e && e.name) {
    // Cancelled, timed out, or no passkey chosen: the browser does not say which.
    case "NotAllowedError":
    case "AbortError":
      return new PasskeyError("passkey_cancelled", e.message);
    // create(): the device holds a passkey of this account already (excludeCredentials).
    case "InvalidStateError":
      return new PasskeyError("passkey_exists", e.message);
    case "NotSupportedError":
      return new PasskeyError("passkey_unsupported", e.message);
    case "SecurityError":
      return new PasskeyError("passkey_insecure", e.message);
    default:
      return new PasskeyError("passkey_failed", (e && e.message) || String(e));
  }
}

function needWebAuthn() {
  if (!webAuthnAvailable()) throw new PasskeyError("passkey_unsupported", "this browser has no WebAuthn (PublicKeyCredential)");
}

/**
 * Makes a passkey with the server's creation options (`{publicKey: …}`
 * of a sign-up or add start): the credential as JSON for the finish.
 */
export async function createPasskey(options) {
  needWebAuthn();
  try {
    const credential = await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) });
    if (!credential) throw new PasskeyError("passkey_cancelled", "no passkey was made");
    return credentialJson(credential);
  } catch (e) {
    throw refusal(e);
  }
}

/**
 * Asks for a passkey with the server's request options (`{publicKey: …}`
 * of a sign-in start): the assertion as JSON for the finish.
 */
export async function usePasskey(options) {
  needWebAuthn();
  try {
    const credential = await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) });
    if (!credential) throw new PasskeyError("passkey_cancelled", "no passkey was chosen");
    return credentialJson(credential);
  } catch (e) {
    throw refusal(e);
  }
}
