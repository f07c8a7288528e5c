// The server's clock. Every countdown runs from server time, never the device's: each state
// carries `server_time`, and offset = server_time − the device time when it was produced.

let offset = 0;

export function sync(serverTime, sentAt, receivedAt = Date.now()) {
  if (typeof serverTime !== "number") return;
  const deviceAtServer = sentAt === undefined ? receivedAt : (sentAt + receivedAt) / 2;
  offset = serverTime - deviceAtServer;
}

// From an answer's Date header (whole seconds) when no state has given the exact offset: the
// device's clock may be wrong by minutes; a second either way is what the header can tell.
export function roughSync(dateHeader, sentAt, receivedAt = Date.now()) {
  const serverTime = Date.parse(dateHeader || "");
  if (!Number.isFinite(serverTime)) return;
  const estimate = serverTime + 500 - (sentAt + receivedAt) / 2;
  if (Math.abs(estimate - offset) > 1500) offset = estimate;
}

export function now() {
  return Date.now() + offset;
}

export function left(deadline) {
  if (deadline === null || deadline === undefined) return null;
  return Math.max(0, deadline - now());
}

export function seconds(ms) {
  return Math.ceil(ms / 1000);
}

export function formatDuration(ms) {
  const total = Math.floor(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}
