//! Who a request comes from, and how much each client may do: rate limits
//! (a token bucket per client and kind of request) and what each client
//! holds open (live sockets, connections), capped.

use crate::error::ApiError;
use crate::{Rate, Rates};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

/// A client, as far as limits go: its IP address, an IPv6 address by its
/// /64 network (one household or host usually holds a whole /64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn new(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    ClientKey(IpAddr::V6(Ipv6Addr::new(
                        s[0], s[1], s[2], s[3], 0, 0, 0, 0,
                    )))
                }
            },
            v4 => ClientKey(v4),
        }
    }

    /// Jobs the server starts by itself (resuming AI games after a restart).
    pub fn server() -> ClientKey {
        ClientKey(IpAddr::V6(Ipv6Addr::UNSPECIFIED))
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V6(v6) if v6.segments()[4..] == [0, 0, 0, 0] && !v6.is_unspecified() => {
                write!(f, "{v6}/64")
            }
            ip => write!(f, "{ip}"),
        }
    }
}

/// The client of a request: the peer's address or, when the server trusts
/// a reverse proxy, the last address of `X-Forwarded-For` (the one the
/// proxy saw: earlier entries come from the client and may be made up).
pub struct Client(pub ClientKey);

/// Set on requests (by the connection layer) when `--trust-proxy` is on.
#[derive(Clone, Copy)]
pub struct TrustProxy;

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, ApiError> {
        Ok(Client(client_of(parts)?))
    }
}

/// The client of a request's parts (see [`Client`]).
pub fn client_of(parts: &Parts) -> Result<ClientKey, ApiError> {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .ok_or_else(|| ApiError::internal("the connection's address is unknown"))?;
    if parts.extensions.get::<TrustProxy>().is_none() {
        return Ok(ClientKey::new(peer));
    }
    let forwarded = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back();
    match forwarded {
        None => Ok(ClientKey::new(peer)),
        Some(last) => last
            .trim()
            .parse::<IpAddr>()
            .map(ClientKey::new)
            .map_err(|_| {
                ApiError::bad_request(
                    "bad_forwarded_for",
                    format!(
                        "X-Forwarded-For ends in `{}`, which is not an IP address",
                        last.trim()
                    ),
                )
            }),
    }
}

/// The kinds of request with a rate limit of their own (each route says
/// which it takes: `api::routes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// New games, rematches (which may begin one).
    Create,
    Import,
    /// Moves and game actions, over HTTP and live sockets.
    Move,
    Analyse,
    WebSocket,
    /// Claims, token renewals, names; a live socket's `hello`.
    Seat,
    /// Game lists, which read many games.
    List,
    /// Reads that build an answer: a game's state or record, a board, the
    /// learning content and its judged tries.
    Read,
    /// Signing up and in, changing a password, deleting an account: each
    /// hashes a password (argon2id, costly by design).
    Account,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Kind::Create => "new games",
            Kind::Import => "imported records",
            Kind::Move => "moves and game actions",
            Kind::Analyse => "analyses",
            Kind::WebSocket => "live connections",
            Kind::Seat => "seat claims, renewals of tokens and invites, and names",
            Kind::List => "game lists",
            Kind::Read => "reads",
            Kind::Account => "sign-ups, sign-ins and password checks",
        }
    }
}

/// One token bucket per client for each kind of request.
pub struct RateLimits {
    buckets: Vec<(Kind, Rate, DefaultKeyedRateLimiter<ClientKey>)>,
}

impl RateLimits {
    pub fn new(rates: &Rates) -> RateLimits {
        let all = [
            (Kind::Create, rates.create),
            (Kind::Import, rates.import),
            (Kind::Move, rates.moves),
            (Kind::Analyse, rates.analyse),
            (Kind::WebSocket, rates.websocket),
            (Kind::Seat, rates.seat),
            (Kind::List, rates.list),
            (Kind::Read, rates.read),
            (Kind::Account, rates.account),
        ];
        let buckets = all
            .into_iter()
            .filter_map(|(kind, rate)| {
                let rate = rate?;
                let burst = NonZeroU32::new(rate.count)?;
                let quota = Quota::with_period(rate.per / rate.count)?.allow_burst(burst);
                Some((kind, rate, RateLimiter::keyed(quota)))
            })
            .collect();
        RateLimits { buckets }
    }

    /// Takes one token of `kind` from `client`'s bucket, or says when one
    /// will be there (429 `rate_limited` with `Retry-After`).
    pub fn check(&self, kind: Kind, client: ClientKey) -> Result<(), ApiError> {
        let Some((_, rate, bucket)) = self.buckets.iter().find(|(k, ..)| *k == kind) else {
            return Ok(());
        };
        bucket.check_key(&client).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError::too_many(
                "rate_limited",
                format!(
                    "too many {} from your address (at most {rate}); try again in {} s",
                    kind.what(),
                    secs.max(1)
                ),
                secs,
            )
            .with("seconds", secs.max(1))
        })
    }

    /// Forgets clients whose buckets are full again (keeps memory bounded).
    pub fn tidy(&self) {
        for (_, _, bucket) in &self.buckets {
            bucket.retain_recent();
            bucket.shrink_to_fit();
        }
    }
}

/// Middleware on a route: each request takes a token of the route's
/// `kind` from its client's bucket before it reaches its handler.
pub async fn limit(
    State((rates, kind)): State<(Arc<RateLimits>, Kind)>,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let checked = client_of(&parts).and_then(|client| rates.check(kind, client));
    if let Err(e) = checked {
        return e.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// How many of something (live sockets, connections) each client holds
/// open, for the per-client caps.
#[derive(Default)]
pub struct ClientCounts {
    per_client: Mutex<HashMap<ClientKey, usize>>,
}

/// One thing counted for its client, until dropped.
pub struct Held {
    counts: Arc<ClientCounts>,
    client: ClientKey,
}

impl ClientCounts {
    /// Counts one more for `client`, unless it holds `cap` already.
    pub fn enter(self: &Arc<Self>, client: ClientKey, cap: usize) -> Option<Held> {
        let mut map = self.per_client.lock().expect("client counts lock");
        let n = map.entry(client).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Held {
            counts: self.clone(),
            client,
        })
    }

    /// Held in all.
    pub fn total(&self) -> usize {
        self.per_client
            .lock()
            .expect("client counts lock")
            .values()
            .sum()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut map = self.counts.per_client.lock().expect("client counts lock");
        if let Some(n) = map.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.client);
            }
        }
    }
}

/// The refusal of a live socket over `--ws-per-client`.
pub fn too_many_sockets(cap: usize) -> ApiError {
    ApiError::too_many(
        "too_many_sockets",
        format!("your address has {cap} live connections open, the most allowed; close some"),
        5,
    )
    .with("max", cap)
}

/// The refusal of a connection (or, behind a trusted proxy, a request)
/// over `--max-connections-per-client`.
pub fn too_many_client_connections(cap: usize) -> ApiError {
    ApiError::too_many(
        "too_many_client_connections",
        format!(
            "your address has {cap} connections (or requests in progress) open, the most allowed; \
             close some or try again shortly"
        ),
        5,
    )
    .with("max", cap)
}

/// Connections per client: the counts and the cap.
pub struct Connections {
    pub counts: Arc<ClientCounts>,
    pub per_client: usize,
}

/// Middleware: behind a trusted proxy every connection comes from the
/// proxy, so a client's requests in progress count against its cap
/// instead (without one, the connection layer counts whole connections
/// as it accepts them). A request waiting for its body is held here.
pub async fn hold(State(conns): State<Arc<Connections>>, req: Request, next: Next) -> Response {
    if req.extensions().get::<TrustProxy>().is_none() {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    // An unreadable X-Forwarded-For is refused by the routes that need
    // the client; the proxy always ends it with the address it saw.
    let held = match client_of(&parts) {
        Ok(client) => match conns.counts.enter(client, conns.per_client) {
            Some(held) => Some(held),
            None => return too_many_client_connections(conns.per_client).into_response(),
        },
        Err(_) => None,
    };
    let response = next.run(Request::from_parts(parts, body)).await;
    drop(held);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_keyed_by_their_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ClientKey::new(a), ClientKey::new(b));
        assert_ne!(ClientKey::new(a), ClientKey::new(c));
        assert_eq!(ClientKey::new(a).to_string(), "2001:db8:1:2::/64");
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(ClientKey::new(mapped).to_string(), "192.0.2.7");
    }

    #[test]
    fn a_client_holds_at_most_its_cap_and_gets_places_back() {
        let counts = Arc::new(ClientCounts::default());
        let a = ClientKey::new("192.0.2.1".parse().unwrap());
        let b = ClientKey::new("192.0.2.2".parse().unwrap());
        let held: Vec<Held> = (0..3)
            .map(|_| counts.enter(a, 3).expect("within"))
            .collect();
        assert!(counts.enter(a, 3).is_none(), "over the cap");
        let other = counts.enter(b, 3).expect("another client has its own");
        assert_eq!(counts.total(), 4);
        drop(held);
        drop(other);
        assert_eq!(counts.total(), 0);
        assert!(counts.per_client.lock().unwrap().is_empty(), "forgotten");
        counts.enter(a, 3).expect("places came back");
    }

    #[test]
    fn a_bucket_allows_its_burst_then_says_when_to_retry() {
        let rates = Rates {
            create: Some(Rate {
                count: 3,
                per: std::time::Duration::from_secs(60),
            }),
            ..Rates::default()
        };
        let limits = RateLimits::new(&rates);
        let a = ClientKey::new("192.0.2.1".parse().unwrap());
        let b = ClientKey::new("192.0.2.2".parse().unwrap());
        for _ in 0..3 {
            limits.check(Kind::Create, a).expect("within the burst");
        }
        let e = limits.check(Kind::Create, a).expect_err("over the burst");
        assert_eq!((e.status.as_u16(), e.code), (429, "rate_limited"));
        // One token comes back every 20 s.
        assert!(
            matches!(e.retry_after, Some(19..=20)),
            "{:?}",
            e.retry_after
        );
        limits
            .check(Kind::Create, b)
            .expect("another client has its own bucket");
    }
}
