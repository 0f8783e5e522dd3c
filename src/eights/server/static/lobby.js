// The lobby: open tables, and a new table in two clicks (New table, Create).

import { presetTitle, seatName, t, tableTitle, tn } from "./i18n.js";
import { el, getJSON, keepHostToken, keepName, keepSeat, postJSON, savedName, seatOf } from "./storage.js";
import { faceSVG } from "./cards.js";

/** How the page words the level of each bot the server seats (GET /api/presets lists them);
 * a bot without a word here is shown by its name. */
const LEVELS = { random: "easy", greedy: "normal", expert: "hard", ismcts: "very hard", learned: "trained",
  "ismcts:prior=learned": "very hard, learned" };
const TIMERS = [0, 15, 30, 60, 120, 300]; // seconds a person has to act (0: no timer)

export async function showLobby(root) {
  document.title = t("Crazy Eights");
  document.body.dataset.view = "lobby"; // the hero names the game: the bar does not repeat it
  const list = el("ul", { class: "table-list", id: "tables", "aria-live": "polite" });
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const newButton = el("button", { type: "button", class: "primary big", id: "new-table" }, t("New table"));
  const hero = el("section", { class: "hero" },
    el("div", { class: "hero-cards", "aria-hidden": "true", html: ["8h", "8s", "8d", "8c"].map(
      (c) => `<span class="hero-card">${faceSVG(c)}</span>`).join("") }),
    el("div", { class: "hero-text" },
      el("h1", {}, t("Crazy Eights")),
      newButton));
  const section = el("section", { class: "panel lobby-tables", "aria-labelledby": "open-title" },
    el("h2", { id: "open-title" }, t("Open tables")), error, list);
  root.replaceChildren(el("div", { class: "lobby" }, hero, section));
  newButton.disabled = true; // until the presets are known and the dialog exists

  let presets = [];
  let bots = [];
  try {
    ({ presets, bots } = await getJSON("/api/presets"));
  } catch (exc) {
    error.textContent = t("Could not reach the server: {message}", { message: exc.message });
    error.hidden = false;
  }
  const dialog = createDialog(presets, bots);
  root.append(dialog);
  newButton.addEventListener("click", () => {
    dialog.showModal();
    const name = dialog.querySelector("#create-name");
    (name.value ? dialog.querySelector("#create-submit") : name).focus();
  });
  newButton.disabled = false;

  const refresh = async () => {
    try {
      const { tables } = await getJSON("/api/tables");
      renderTables(list, tables);
      error.hidden = true;
    } catch (exc) {
      error.textContent = t("Could not reach the server: {message}", { message: exc.message });
      error.hidden = false;
    }
  };
  await refresh();
  const timer = setInterval(() => {
    if (!document.hidden) refresh();
  }, 4000);
  window.addEventListener("pagehide", () => clearInterval(timer), { once: true });
}

function renderTables(list, tables) {
  if (!tables.length) {
    list.replaceChildren(el("li", { class: "empty" }, t("No open table yet: create one.")));
    return;
  }
  list.replaceChildren(...tables.map((table) => {
    const free = table.seats.filter((s) => s.kind === "free").length;
    const people = table.seats.flatMap((s, i) => [i ? ", " : null,
      s.kind === "free" ? el("em", { class: "free-seat" }, t("free seat")) : seatName(s)]);
    const href = `/t/${encodeURIComponent(table.code)}`;
    const mine = seatOf(table.code) !== null; // this browser holds a seat there
    const canJoin = !mine && table.status === "waiting" && free > 0;
    const rules = presetTitle(table.rules, table.rules_title);
    const timer = table.turn_timer ? ` · ${t("turn timer: {s} s", { s: Math.round(table.turn_timer) })}` : "";
    const label = mine ? t("Resume") : canJoin ? t("Join") : t("Watch");
    return el("li", { class: "table-item", "data-code": table.code },
      el("div", { class: "table-item-text" },
        el("strong", {}, tableTitle(table)),
        el("span", { class: "muted" }, (table.title ? t("{title}, {n} players", { title: rules, n: table.players })
          : tn("{n} player", "{n} players", table.players)) + timer),
        el("span", { class: "muted small seat-names" }, people)),
      el("span", { class: `status-pill ${table.status}` },
        table.status === "waiting" && free > 0 ? tn("{n} free seat", "{n} free seats", free) : t(table.status)),
      el("a", { class: `button ${mine || canJoin ? "primary" : ""}`, href, "data-action": mine ? "resume" : canJoin ? "join" : "watch" }, label));
  }));
}

/** A bot's level in words, with its name as the terminal's --bots takes it: "normal (greedy)". */
export function levelWords(bot) {
  return LEVELS[bot] ? `${t(LEVELS[bot])} (${bot})` : bot;
}

function createDialog(presets, botNames) {
  const byName = Object.fromEntries(presets.map((p) => [p.name, p]));
  const rules = el("select", { id: "create-rules", name: "rules" },
    presets.map((p) => el("option", { value: p.name, selected: p.name === "classic" }, presetTitle(p.name, p.title))));
  const players = el("select", { id: "create-players", name: "players" });
  const bots = el("select", { id: "create-bots", name: "bots" });
  const level = el("select", { id: "create-level", name: "level" },
    botNames.map((bot) => el("option", { value: bot, selected: bot === "greedy" }, levelWords(bot))));
  const timer = el("select", { id: "create-timer", name: "turn_timer" },
    TIMERS.map((s) => el("option", { value: s, selected: s === 0 }, s ? t("{s} s", { s }) : t("no timer"))));
  const name = el("input", { id: "create-name", name: "name", required: true, maxlength: 24,
    autocomplete: "nickname", value: savedName() });
  const error = el("p", { class: "error", role: "alert", hidden: true });

  const fillPlayers = () => {
    const preset = byName[rules.value];
    if (!preset) return;
    const [low, high] = preset.players;
    const choice = Math.min(high, Math.max(low, Number(players.value) || preset.default_players));
    players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => el("option", { value: n, selected: n === choice }, n)));
    fillBots();
  };
  const fillBots = () => {
    const n = Number(players.value);
    // A bot that needs something made for the table (the learned bot's model) only where it fits.
    const fits = byName[rules.value]?.bot_players ?? {};
    for (const option of level.options) {
      option.disabled = option.value in fits && !fits[option.value].includes(n);
    }
    if (level.selectedOptions[0]?.disabled) level.value = "greedy";
    // Default: you, one friend, and bots in the other seats.
    const choice = bots.dataset.touched ? Math.min(Number(bots.value), n - 1) : Math.max(0, n - 2);
    bots.replaceChildren(...Array.from({ length: n }, (_, i) => i)
      .map((k) => el("option", { value: k, selected: k === choice }, k)));
  };
  rules.addEventListener("change", () => {
    players.value = "";
    fillPlayers();
  });
  players.addEventListener("change", fillBots);
  bots.addEventListener("change", () => {
    bots.dataset.touched = "1";
  });
  if (presets.length) fillPlayers();

  const field = (label, control) => el("label", { class: "field" }, el("span", {}, label), control);
  const submit = el("button", { type: "submit", class: "primary", id: "create-submit" }, t("Create"));
  const form = el("form", { method: "dialog", class: "create-form" },
    el("h2", {}, t("Create a table")),
    field(t("Rules"), rules),
    el("div", { class: "row counts" }, field(t("Players"), players), field(t("Bots"), bots), field(t("Bot level"), level)),
    el("div", { class: "row two" }, field(t("Your name"), name), field(t("Turn timer"), timer)),
    error,
    el("div", { class: "dialog-buttons" },
      el("button", { type: "button", value: "cancel", onclick: () => dialog.close() }, t("Cancel")),
      submit));
  const dialog = el("dialog", { class: "dialog", id: "create-dialog", "aria-labelledby": "create-title" }, form);
  form.querySelector("h2").id = "create-title";

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const n = Number(players.value);
    const k = Number(bots.value);
    const seatBots = {};
    for (let seat = n - k; seat < n; seat += 1) seatBots[seat] = level.value;
    submit.disabled = true;
    try {
      const body = { rules: rules.value, players: n, bots: seatBots, name: name.value.trim() };
      if (Number(timer.value)) body.turn_timer = Number(timer.value);
      const answer = await postJSON("/api/tables", body);
      keepName(name.value.trim());
      keepHostToken(answer.code, answer.host_token);
      keepSeat(answer.code, answer.seat, answer.token);
      if (!answer.table.seats.some((s) => s.kind === "free")) {
        sessionStorage.setItem(`eights.autostart.${answer.code}`, "1");
      }
      location.assign(answer.invite);
    } catch (exc) {
      error.textContent = exc.message;
      error.hidden = false;
      submit.disabled = false;
    }
  });
  return dialog;
}
