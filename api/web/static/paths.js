// The addresses of the screens (#/<path>), for screens that send the player to another one.
// Kept apart from routes.js, which imports every screen, so that screens import no cycle.

export function tournamentPath(id, view = null) {
  const base = `t/${encodeURIComponent(id)}`;
  return view ? `${base}/${encodeURIComponent(view)}` : base;
}

// A finished tournament's public results, for anyone (the summary needs no token).
export function summaryPath(id) {
  return `r/${encodeURIComponent(id)}`;
}

export function summaryUrl(id) {
  return `${location.origin}/#/${summaryPath(id)}`;
}

export function leaderboardPath(language = null) {
  return language ? `leaderboard/${encodeURIComponent(language)}` : "leaderboard";
}
