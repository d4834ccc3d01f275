// The only way the page talks to the service: the documented endpoints of /v1 (see /v1/openapi.json), with
// the seat token, read from the URL fragment, sent as "Authorization: Bearer". A token never goes into a URL
// the page requests (the fragment itself never leaves the browser).

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code || "http-" + status;
  }
}

/** The seat token of this page: "#token=..." in the fragment (null: a spectator). */
export function fragmentToken() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const token = params.get("token");
  return token && /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : null;
}

/** A JSON request to the service; resolves to the answer's body, rejects with an ApiError. */
export async function call(method, path, { token = null, body, signal, headers = {} } = {}) {
  const hdrs = { Accept: "application/json", ...headers };
  if (token) hdrs.Authorization = "Bearer " + token;
  if (body !== undefined) hdrs["Content-Type"] = "application/json";
  const resp = await fetch(path, {
    method,
    headers: hdrs,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: "no-store",
    credentials: "omit",
    referrerPolicy: "no-referrer",
  });
  let doc = null;
  try {
    doc = await resp.json();
  } catch (_) {
    doc = null;
  }
  if (!resp.ok) throw new ApiError(resp.status, doc);
  return doc;
}

export const get = (path, options) => call("GET", path, options);
export const post = (path, body, options = {}) => call("POST", path, { ...options, body });

/** Path segment escaping for ids put into API paths. */
export const seg = (value) => encodeURIComponent(String(value));

/** A fresh Idempotency-Key (a retried move is then answered once, never played twice). */
export function idempotencyKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
