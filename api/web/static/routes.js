// The screens and their addresses (#/<path>). A route is a pattern of fixed parts and
// `:params`; the first that matches wins. A new screen is one line here and one module.
// A `public` screen needs no player: opened without a token, it makes none (a shared link).

import * as group from "./screens/group.js";
import * as history from "./screens/history.js";
import * as home from "./screens/home.js";
import * as join from "./screens/join.js";
import * as leaderboard from "./screens/leaderboard.js";
import * as lobby from "./screens/lobby.js";
import * as stats from "./screens/stats.js";
import * as summary from "./screens/summary.js";
import * as tournament from "./screens/tournament.js";

export const ROUTES = [
  { name: "home", pattern: "", screen: home },
  { name: "group", pattern: "group", screen: group },
  { name: "lobby", pattern: "lobby", screen: lobby },
  { name: "join", pattern: "join/:code", screen: join },
  // A tournament: live, watched or finished; `view` opens one of its views (e.g. "story").
  { name: "t", pattern: "t/:id", screen: tournament },
  { name: "t", pattern: "t/:id/:view", screen: tournament },
  // The player's records: statistics, finished tournaments, the leaderboards (all, or a language's).
  { name: "stats", pattern: "stats", screen: stats },
  { name: "history", pattern: "history", screen: history },
  { name: "leaderboard", pattern: "leaderboard", screen: leaderboard },
  { name: "leaderboard", pattern: "leaderboard/:language", screen: leaderboard },
  // A finished tournament's public results: the address a share links to.
  { name: "r", pattern: "r/:id", screen: summary, public: true },
];

const HOME = ROUTES[0];

// The route of a location hash, with its parameters (decoded); an unknown address is home.
export function match(hash) {
  const parts = String(hash || "")
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean);
  for (const route of ROUTES) {
    const want = route.pattern.split("/").filter(Boolean);
    if (want.length !== parts.length) continue;
    const params = {};
    const fits = want.every((part, i) => {
      if (part.startsWith(":")) {
        try {
          params[part.slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          return false;
        }
        return true;
      }
      return part === parts[i];
    });
    if (fits) return { route, params };
  }
  return { route: HOME, params: {}, unknown: parts.length > 0 };
}
