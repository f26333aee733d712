// Telling the person what happened while they look elsewhere: the tab's
// title says whose turn it is ("● Your turn — PÜNCT" when this screen may
// move), and short sounds mark a move, the turn coming to this screen and
// the end of the game (sound.js, which can be muted).

import { tSide } from "./dom.js";
import { t } from "./i18n.js";
import { sound } from "./sound.js";

export class Notifier {
  constructor() {
    this.last = null; // {version, ply, status, mine}
  }

  /** state: the live game; mine: whether the person here may move now; hotseat: one screen for both. */
  update(state, mine) {
    let title;
    if (state.status === "over") title = state.result ? t("game.tab.over_score", { score: state.result.score }) : t("game.tab.over");
    else if (mine) title = t("game.tab.your_turn");
    else title = tSide("game.tab.to_move", state.to_move);
    if (document.title !== title) document.title = title;
    const now = { version: state.version, ply: state.ply, status: state.status, mine };
    const was = this.last;
    this.last = now;
    if (!was || was.version === now.version) return;
    if (now.status === "over" && was.status !== "over") sound.play("end");
    else if (now.mine && !was.mine && state.mode !== "hotseat" && now.ply > was.ply) sound.play("turn");
    else if (now.ply > was.ply) sound.play("move");
  }

  destroy() {
    document.title = "PÜNCT";
  }
}
