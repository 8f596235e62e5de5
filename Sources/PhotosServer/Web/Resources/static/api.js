// The API as the page uses it: the same routes as any client, with the session's cookie, and the
// CSRF token (from the page's own HTML) on every request that changes something.

import { identifierPath } from "./layout.js";

const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
export const access = document.querySelector('meta[name="access"]')?.content ?? "read-only";
export const canChange = access === "read-write";

/** An error the API answered, with its message. */
export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function send(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (await response.json()).error?.message ?? message;
    } catch {
      // Not the API's error body: the status says enough.
    }
    if (response.status === 401) location.reload();
    throw new APIError(response.status, message);
  }
  return response;
}

/** GET a JSON answer. */
export async function get(path, parameters = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, value);
  }
  const text = query.toString();
  return (await send(text ? `${path}?${text}` : path)).json();
}

/** POST a batch of change requests (`POST /v1/changes`), atomically. */
export async function change(changes) {
  const response = await send("/v1/changes", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ changes }),
  });
  return response.json();
}

/** POST with no body (a hook's resume, the trash's restore). */
export async function post(path, body) {
  const response = await send(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? null : response.json();
}

export function assetPath(identifier) {
  return `/v1/assets/${identifierPath(identifier)}`;
}

export function thumbnailURL(identifier, size = 256) {
  return `${assetPath(identifier)}/thumbnail?size=${size}`;
}
