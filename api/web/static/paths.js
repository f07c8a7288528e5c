// The addresses of the screens (#/<path>), for screens that send the player to another one.
// Kept apart from routes.js, which imports every screen, so that screens import no cycle.

export function tournamentPath(id, view = null) {
  const base = `t/${encodeURIComponent(id)}`;
  return view ? `${base}/${encodeURIComponent(view)}` : base;
}
