// The public /v1 API, and nothing else. The bearer token lives in localStorage so that a reload
// (or a closed tab) reconnects as the same player.

import { checkVersion } from "./update.js";

const TOKEN_KEY = "wt.token";

// Where the player is (docs/client.md): every authenticated GET answers with a `Where` header,
// and a write's answer may carry a `where` object (the state after a guess or a leave). This is
// the one place that reads them; the router listens (app.js) and takes the player there.
const whereListeners = new Set();
let writesInFlight = 0;
let writesDone = 0;

export function onWhere(listener) {
  whereListeners.add(listener);
  return () => whereListeners.delete(listener);
}

function tell(where) {
  if (!where || typeof where !== "object") return;
  for (const listener of whereListeners) {
    try {
      listener(where);
    } catch (err) {
      console.error(err);
    }
  }
}

function parseWhere(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class ApiError extends Error {
  constructor(status, code, message, details = {}, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

// One request. Resolves to {status, data, headers}; a 304 has data null. Errors throw ApiError
// (status 0 when the network itself failed).
export async function request(method, path, { body, etag } = {}) {
  const headers = { Accept: "application/json" };
  const bearer = token();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-None-Match"] = etag;
  const write = method !== "GET";
  // A read that overlapped a write may describe the player before it: its position is stale.
  const epoch = writesDone;
  const overlapped = () => writesInFlight > 0 || writesDone !== epoch;
  const calm = !overlapped();
  if (write) writesInFlight += 1;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // We do our own conditional requests; the HTTP cache must not answer for the server.
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
  } finally {
    if (write) {
      writesInFlight -= 1;
      writesDone += 1;
    }
  }
  checkVersion(response.headers);
  const where = !write && response.ok && calm && !overlapped() ? parseWhere(response.headers.get("Where")) : null;
  if (response.status === 304 || response.status === 204) {
    tell(where);
    return { status: response.status, data: null, headers: response.headers };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok) tell(where || (write && data && data.where) || null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(
      response.status,
      error.code || "error",
      error.message || response.statusText,
      error.details || {},
      retryAfter(response.headers.get("Retry-After")),
    );
  }
  return { status: response.status, data, headers: response.headers };
}

// Retry-After in seconds: a number of seconds, or an HTTP date (RFC 9110); null without one.
export function retryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
}

export const get = (path, options) => request("GET", path, options);
export const post = (path, body = {}) => request("POST", path, { body });
export const patch = (path, body) => request("PATCH", path, { body });
export const del = (path) => request("DELETE", path);

// The player behind the stored token, or a new anonymous one when there is none (or it is
// unknown, e.g. after the server's storage was reset).
export async function connect() {
  if (token()) {
    try {
      return (await get("/v1/me")).data;
    } catch (err) {
      if (err.status !== 401) throw err;
      setToken(null);
    }
  }
  let created;
  try {
    created = (await post("/v1/players")).data;
  } catch (err) {
    err.creation = true; // a refused creation (429: too many new players) is told apart (app.js)
    throw err;
  }
  setToken(created.token);
  const { token: _secret, ...profile } = created;
  return profile;
}
