// Ratings in words and numbers (profile.js, leaderboard.js, endgame.js):
// the categories of time control, a rating ("1512", "1500?" while
// provisional) and a change ("+12", "−12").

import { t, num } from "./i18n.js";

/** The rating categories, fastest first (the server's names). */
export const CATEGORIES = ["bullet", "blitz", "rapid", "classical", "correspondence"];

/** A category's name in the page's language ("Blitz"). */
export const categoryName = (c) => (CATEGORIES.includes(c) ? t(`rating.category.${c}`) : c);

/** A rating as shown: rounded, with "?" while it is provisional. */
export function ratingText(rating, provisional = false) {
  if (rating == null) return "–";
  // Ratings are written without grouping ("1512", not "1,512").
  return `${num(Math.round(rating), { useGrouping: false })}${provisional ? "?" : ""}`;
}

/** A change of rating with its sign: "+12", "−12" (a real minus), "±0". */
export function changeText(change) {
  const n = Math.round(Number(change) || 0);
  if (n === 0) return "±0";
  return n > 0 ? `+${num(n, { useGrouping: false })}` : `−${num(-n, { useGrouping: false })}`;
}

/** A rating and its change: "1512 (+12)" (the catalogue's order). */
export function ratingWithChange(rating, change, provisional = false) {
  return t("rating.with_change", { rating: ratingText(rating, provisional), change: changeText(change) });
}
