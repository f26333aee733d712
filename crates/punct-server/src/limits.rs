//! Who a request comes from, and how much each client may do: rate limits
//! (a token bucket per client and kind of request) and counts of open
//! live sockets.

use crate::error::ApiError;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

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
}
