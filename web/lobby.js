// The lobby on the start screen (docs/API.md, "The lobby"): the live list
// of open seeks, quick pairing and one's own seeks, over the lobby's socket
// (api.js LobbySocket). When a seek of ours or one we accept becomes a
// game, its seat's token is kept like every other (dom.js gameMemory) and
// the game opens. The socket's seeks go when it closes (leaving the start
// screen, closing the tab); after a drop it reconnects and the list is
// drawn again from its first message.

import { LobbySocket } from "./api.js";
import { gameMemory, nameProblem, playerName } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { clockText } from "./lists.js";
import { challengeLine, lobbyView, seekLine } from "./lobbyview.js";

/**
 * The lobby's panel: {element, destroy()}. `clocks` and `clockGroups` are
 * the start screen's time controls; `navigate(path)` opens a game.
 */
export function lobbyPanel({ clocks, clockGroups, navigate, challenge = null }) {
  let you = null; // {name} when signed in
  let connected = false;
  let searching = null; // quick pairing: {value, seek, since}
  let poolAsked = null; // the request id of a quick pairing on its way
  const own = new Set(); // this socket's open seeks
  const pending = new Map(); // request id → what to undo when it fails
  const seeks = new Map(); // id → seek, as listed
  const challenges = new Map(); // id → {seek, incoming}
  const sentTo = new Map(); // id → the name, of this page's challenges (kept past their line)

  const on = {
    quick(value) {
      if (searching) {
        if (searching.value === value) cancelPool();
        return;
      }
      const id = send({ type: "pool", clock: clocks.get(value), rated: !!you });
      if (id == null) return;
      poolAsked = id;
      pending.set(id, { kind: "pool", value });
      drawQuick();
    },
    cancelPool,
    accept(seek, button) {
      const id = send({ type: "accept", seek, ...anonymousName() });
      if (id == null) return;
      button.disabled = true;
      pending.set(id, { kind: "accept", button });
    },
    cancel(seek, button) {
      const id = send({ type: "cancel", seek });
      if (id == null) return;
      button.disabled = true;
      pending.set(id, { kind: "cancel", button });
    },
    create({ clock, variant, side, rated, to }) {
      const timeControl = clocks.get(clock) || null;
      const settings = { variant, side, rated: !!you && rated, ...(timeControl ? { clock: timeControl } : {}) };
      const id = send(to
        ? { type: "challenge", to, ...settings }
        : { type: "seek", ...settings, ...anonymousName() });
      if (id != null) pending.set(id, to ? { kind: "challenge", seek: { ...settings, clock: timeControl, to } } : { kind: "seek" });
    },
    decline(seek, button) {
      const id = send({ type: "decline", seek });
      if (id == null) return;
      button.disabled = true;
      pending.set(id, { kind: "decline", button });
    },
  };
  const view = lobbyView({ clocks, clockGroups, on });

  /** An anonymous player's display name (the start screen's), when the server would take it. */
  function anonymousName() {
    if (you) return {};
    const name = playerName.get().trim();
    return name && !nameProblem(name) ? { name } : {};
  }

  function send(msg) {
    view.say("");
    const id = socket.send(msg);
    if (id == null) view.say(errorText({ code: "network", message: "not connected" }));
    return id;
  }

  function cancelPool() {
    if (!searching) return;
    const id = send({ type: "cancel", seek: searching.seek });
    if (id != null) pending.set(id, { kind: "cancel-pool" });
  }

  function putChallenge(seek, incoming) {
    challenges.set(seek.id, { seek, incoming });
    view.putChallenge(seek.id, challengeLine(seek, {
      incoming, onAccept: on.accept, onDecline: on.decline, onCancel: on.cancel,
    }));
  }

  function dropChallenge(id) {
    challenges.delete(id);
    view.removeChallenge(id);
  }

  const line = (seek) => seekLine(seek, {
    own: own.has(seek.id),
    // Signed in, a seek of the same account (another tab's) is ours too: not to accept.
    ours: !!you && seek.account && seek.name === you.name,
    onAccept: on.accept,
    onCancel: on.cancel,
  });

  let ticker = null;
  function drawQuick() {
    view.quickState({ searching, busy: poolAsked != null, connected });
    if (searching && !ticker) ticker = setInterval(drawQuick, 1000);
    if (!searching && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  /** The seat of a game made from a seek: kept in this browser, then the game opens. */
  function paired(msg) {
    gameMemory.save(msg.game, { ...gameMemory.get(msg.game), token: msg.token, seats: [msg.side] });
    view.status(t("lobby.paired"));
    searching = null;
    drawQuick();
    socket.close();
    navigate(`/game/${msg.game}`);
  }

  function failed(msg) {
    const was = pending.get(msg.id);
    pending.delete(msg.id);
    if (was?.kind === "pool") {
      poolAsked = null;
      drawQuick();
    }
    if (was?.button) was.button.disabled = false;
    const err = { ...msg.error, params: { ...(msg.error?.params || {}) } };
    if (msg.retry_after != null && err.params.seconds == null) err.params.seconds = msg.retry_after;
    view.say(errorText(err));
  }

  function receive(msg) {
    switch (msg.type) {
      case "seeks":
        you = msg.you || null;
        view.signedIn(you?.name || null);
        seeks.clear();
        for (const s of msg.seeks || []) seeks.set(s.id, s);
        view.setSeeks([...seeks.values()], line);
        challenges.clear();
        view.clearChallenges();
        // Another tab's challenges are listed too: withdrawn with that tab.
        for (const s of msg.challenges?.incoming || []) putChallenge(s, true);
        for (const s of msg.challenges?.outgoing || []) putChallenge(s, false);
        if (challenge && you) {
          view.challenge(challenge);
          challenge = null;
        }
        view.status(t("lobby.status.live"));
        view.enable(connected);
        break;
      case "added":
        if (!msg.seek || msg.seek.kind !== "seek") break;
        seeks.set(msg.seek.id, msg.seek);
        view.putSeek(msg.seek, line);
        view.enable(connected);
        break;
      case "challenge":
        if (msg.seek?.id) {
          putChallenge(msg.seek, true);
          view.status(t("lobby.challenge.received", { name: msg.seek.name }));
        }
        break;
      case "declined": {
        // Its line may be gone already (the "removed" of every socket comes first).
        const name = sentTo.get(msg.seek) || challenges.get(msg.seek)?.seek.to || "";
        sentTo.delete(msg.seek);
        dropChallenge(msg.seek);
        own.delete(msg.seek);
        view.say(t("lobby.challenge.declined", { name }));
        break;
      }
      case "declined_ok":
        pending.delete(msg.id);
        dropChallenge(msg.seek);
        break;
      case "removed":
        dropChallenge(msg.id);
        seeks.delete(msg.id);
        own.delete(msg.id);
        view.removeSeek(msg.id);
        break;
      case "seeking": {
        const was = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.kind === "pool") {
          poolAsked = null;
          searching = { value: was?.value, seek: msg.seek, since: Date.now() };
          view.status(t("lobby.quick.searching_for", { clock: clockText(clocks.get(searching.value)) }));
          drawQuick();
        } else if (msg.kind === "challenge") {
          own.add(msg.seek);
          sentTo.set(msg.seek, was?.seek?.to || "");
          putChallenge({ id: msg.seek, ...was?.seek, name: you?.name }, false);
          view.status(t("lobby.challenge.sent", { name: was?.seek?.to || "" }));
        } else {
          own.add(msg.seek);
          const seek = seeks.get(msg.seek);
          if (seek) view.putSeek(seek, line);
          view.status(t("lobby.create.open"));
        }
        break;
      }
      case "cancelled": {
        const was = pending.get(msg.id);
        pending.delete(msg.id);
        if (searching && msg.seek === searching.seek) {
          searching = null;
          drawQuick();
          view.status(t("lobby.status.live"));
        }
        own.delete(msg.seek);
        dropChallenge(msg.seek);
        if (was?.button) was.button.disabled = false;
        const seek = seeks.get(msg.seek);
        if (seek) view.putSeek(seek, line);
        break;
      }
      case "paired":
        paired(msg);
        break;
      case "error":
        failed(msg);
        break;
      default: // messages this page does not know are left alone
    }
  }

  const socket = new LobbySocket({
    onMessage: receive,
    onConnection(up) {
      connected = up;
      if (!up) {
        // The server withdrew this socket's seeks with it.
        own.clear();
        pending.clear();
        searching = null;
        poolAsked = null;
        view.status(t("lobby.status.lost"));
      }
      view.enable(up);
      drawQuick();
    },
  });
  view.enable(false);
  drawQuick();

  return {
    element: view.element,
    destroy() {
      clearInterval(ticker);
      socket.close();
    },
  };
}
