// What the browser keeps: the seat token and host token of each table (by
// code), the last name typed and the language. Closing the tab and coming back
// resumes the seat.

const get = (key) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const set = (key, value) => {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
};

/** {seat, token} for a table, or null. */
export function seatOf(code) {
  try {
    const data = JSON.parse(get(`eights.seat.${code}`));
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}
export const keepSeat = (code, seat, token) => set(`eights.seat.${code}`, JSON.stringify({ seat, token }));
export const forgetSeat = (code) => set(`eights.seat.${code}`, null);
export const hostTokenOf = (code) => get(`eights.host.${code}`);
export const keepHostToken = (code, token) => set(`eights.host.${code}`, token);
export const savedName = () => get("eights.name") || "";
export const keepName = (name) => set("eights.name", name);

/** POST JSON; the answer's JSON, or an Error carrying the server's message. */
export async function postJSON(url, body) {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.message || `${answer.status} ${answer.statusText}`);
  return data;
}

export async function getJSON(url) {
  const answer = await fetch(url);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = new Error(data.message || `${answer.status} ${answer.statusText}`);
    error.status = answer.status;
    throw error;
  }
  return data;
}

/** An element: el("button", {class: "x", onclick: f}, "text", child…). Text is never parsed as HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value; // only our own SVG, never names
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** House rules kept in this browser by name: {name: rules object}. */
export function savedHouses() {
  try {
    const data = JSON.parse(get("eights.houses"));
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}
export const keepHouse = (name, house) => set("eights.houses", JSON.stringify({ ...savedHouses(), [name]: house }));
export function forgetHouse(name) {
  const houses = savedHouses();
  delete houses[name];
  set("eights.houses", JSON.stringify(houses));
}
/** A page setting kept in this browser ("eights.sound", "eights.deck"). */
export const setting = (key) => get(`eights.${key}`);
export const keepSetting = (key, value) => set(`eights.${key}`, value);
