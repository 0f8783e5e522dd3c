// The lobby: open tables, and a new table in two clicks (New table, Create).

import { lang, levelAbout, levelName, presetTitle, seatName, t, tableTitle, tn } from "./i18n.js";
import { el, getJSON, keepHostToken, keepName, keepSeat, postJSON, savedName, seatOf } from "./storage.js";
import { faceSVG } from "./cards.js";
import { HouseRules, linkedHouse } from "./house.js";

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
  let levels = null;
  try {
    ({ presets, bots, levels } = await getJSON("/api/presets"));
  } catch (exc) {
    error.textContent = t("Could not reach the server: {message}", { message: exc.message });
    error.hidden = false;
  }
  const dialog = createDialog(presets, levels || bots);
  root.append(dialog);
  newButton.addEventListener("click", () => {
    dialog.house.open();
    dialog.showModal();
    const name = dialog.querySelector("#create-name");
    (name.value ? dialog.querySelector("#create-submit") : name).focus();
  });
  newButton.disabled = false;
  const linked = linkedHouse(); // a shared link: the form opens with its house rules
  if (linked) {
    await dialog.house.open();
    dialog.house.loaded(linked);
    dialog.querySelector("#house-rules").open = true;
    dialog.showModal();
  }

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
      s.kind === "free" ? el("em", { class: "free-seat" }, t("free seat"))
        : s.kind === "bot" ? `${seatName(s)} (${levelName(s.bot)})` : seatName(s)]);
    const href = `/t/${encodeURIComponent(table.code)}`;
    const mine = seatOf(table.code) !== null; // this browser holds a seat there
    const canJoin = !mine && table.status === "waiting" && free > 0;
    const rules = presetTitle(table.rules, table.rules_title);
    const timer = table.turn_timer ? ` · ${t("turn timer: {s} s", { s: Math.round(table.turn_timer) })}` : "";
    const label = mine ? t("Resume") : canJoin ? t("Join") : t("Watch");
    return el("li", { class: "table-item", "data-code": table.code },
      el("div", { class: "table-item-text" },
        el("span", { class: "table-item-head" }, el("strong", {}, tableTitle(table)),
          table.house_rules ? houseBadge(table.code) : null),
        el("span", { class: "muted" }, (table.title ? t("{title}, {n} players", { title: rules, n: table.players })
          : tn("{n} player", "{n} players", table.players)) + timer),
        el("span", { class: "muted small seat-names" }, people)),
      el("span", { class: `status-pill ${table.status}` },
        table.status === "waiting" && free > 0 ? tn("{n} free seat", "{n} free seats", free) : t(table.status)),
      el("a", { class: `button ${mine || canJoin ? "primary" : ""}`, href, "data-action": mine ? "resume" : canJoin ? "join" : "watch" }, label));
  }));
}

const changesOf = new Map(); // table code -> the promise of its changed rules in words
let openBadge = null; // the table whose changes are shown (kept when the list is redrawn)

/** "House rules": a badge that shows what the table changes from its preset, in words, on
 * hover or focus and on a tap or click (a disclosure button: not hover only). */
function houseBadge(code) {
  const list = el("ul", { class: "house-popup", id: `house-${code}`, role: "tooltip", hidden: true });
  const badge = el("button", { type: "button", class: "badge house-badge", "aria-expanded": "false",
    "aria-controls": `house-${code}`, "data-code": code }, t("House rules"));
  let pinned = false; // opened by a click or a tap: it stays until the next one (or Escape)
  const show = async (open) => {
    if (open) openBadge = code;
    else if (openBadge === code) openBadge = null;
    badge.setAttribute("aria-expanded", String(open));
    list.hidden = !open;
    if (!open || list.childElementCount) return;
    if (!changesOf.has(code)) {
      changesOf.set(code, getJSON(`/api/tables/${encodeURIComponent(code)}/rules?lang=${lang()}`)
        .then((rules) => rules.changes).catch(() => []));
    }
    const changes = await changesOf.get(code);
    list.replaceChildren(...changes.map((line) => el("li", {}, line)));
  };
  badge.addEventListener("click", () => {
    pinned = !pinned;
    show(pinned);
  });
  badge.addEventListener("mouseenter", () => show(true));
  badge.addEventListener("mouseleave", () => pinned || show(false));
  badge.addEventListener("focus", () => show(true));
  badge.addEventListener("blur", () => pinned || show(false));
  badge.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      pinned = false;
      show(false);
    }
  });
  if (openBadge === code) show(true);
  return el("span", { class: "house-badge-box" }, badge, list);
}

/** A bot's level in words, as the terminal's new-match screen names it: "Greedy". */
export function levelWords(bot) {
  return levelName(bot);
}

function createDialog(presets, botNames) {
  const byName = Object.fromEntries(presets.map((p) => [p.name, p]));
  const rules = el("select", { id: "create-rules", name: "rules" },
    presets.map((p) => el("option", { value: p.name, selected: p.name === "classic" }, presetTitle(p.name, p.title))));
  const players = el("select", { id: "create-players", name: "players" });
  const bots = el("select", { id: "create-bots", name: "bots" });
  const level = el("select", { id: "create-level", name: "level" },
    botNames.map((bot) => el("option", { value: bot, selected: bot === "greedy", title: levelAbout(bot) }, levelName(bot))));
  const about = el("p", { class: "muted small", id: "create-level-about" });
  const showAbout = () => {
    about.textContent = levelAbout(level.value);
  };
  level.addEventListener("change", showAbout);
  const timer = el("select", { id: "create-timer", name: "turn_timer" },
    TIMERS.map((s) => el("option", { value: s, selected: s === 0 }, s ? t("{s} s", { s }) : t("no timer"))));
  const name = el("input", { id: "create-name", name: "name", required: true, maxlength: 24,
    autocomplete: "nickname", value: savedName() });
  const error = el("p", { class: "error", role: "alert", hidden: true });

  // House rules (house.js): every key of a rules file, from the preset's values; each change
  // is checked by the server, and its answer says which players and levels fit them.
  const submit = el("button", { type: "submit", class: "primary", id: "create-submit" }, t("Create"));
  const house = new HouseRules({
    onChecked: (answer) => {
      submit.disabled = !answer.ok;
      if (answer.ok) {
        checked = answer;
        fillPlayers(true);
      }
    },
  });
  let checked = null; // the last good check: the players and levels the house rules allow
  house.onLoaded = (preset) => {
    rules.value = preset;
    fillPlayers();
  };
  // Loaded when the form first opens (the lobby itself asks the server for nothing more).
  house.open = () => {
    house.ready ??= house.load().then(() => house.reset(rules.value)).catch((exc) => {
      house.box.replaceChildren(house.summary, el("p", { class: "error" }, exc.message));
    });
    return house.ready;
  };
  const fits = () => (checked && checked.rules.extends === rules.value ? checked.bot_players
    : byName[rules.value]?.bot_players) ?? {};

  const fillPlayers = (keep = false) => {
    const preset = byName[rules.value];
    if (!preset) return;
    const ruled = checked && checked.rules.extends === rules.value ? checked : preset;
    const [low, high] = ruled.players;
    const choice = Math.min(high, Math.max(low, Number(players.value) || ruled.default_players));
    if (keep && players.options.length === high - low + 1 && Number(players.options[0].value) === low) {
      fillBots();
      return;
    }
    players.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => el("option", { value: n, selected: n === choice }, n)));
    fillBots();
  };
  const fillBots = () => {
    const n = Number(players.value);
    // A bot that needs something made for the table (the learned bot's model) only where it
    // fits (the family model plays any house rules: learned levels stay offered).
    const fit = fits();
    for (const option of level.options) {
      option.disabled = option.value in fit && !fit[option.value].includes(n);
    }
    if (level.selectedOptions[0]?.disabled) level.value = "greedy";
    showAbout();
    // Default: a full table, you and bots (it starts at once); fewer bots leave seats free
    // for friends, as each choice says.
    const choice = bots.dataset.touched ? Math.min(Number(bots.value), n - 1) : n - 1;
    bots.replaceChildren(...Array.from({ length: n }, (_, i) => n - 1 - i)
      .map((k) => el("option", { value: k, selected: k === choice },
        k === n - 1 ? String(k) : tn("{k}, {n} free seat", "{k}, {n} free seats", n - 1 - k, { k }))));
  };
  rules.addEventListener("change", () => {
    players.value = "";
    checked = null;
    fillPlayers();
    house.reset(rules.value);
  });
  players.addEventListener("change", () => {
    fillBots();
    house.players = Number(players.value);
    if (house.schema) house.check();
  });
  bots.addEventListener("change", () => {
    bots.dataset.touched = "1";
  });
  if (presets.length) fillPlayers();

  const field = (label, control) => el("label", { class: "field" }, el("span", {}, label), control);
  const form = el("form", { method: "dialog", class: "create-form" },
    el("h2", {}, t("Create a table")),
    field(t("Rules"), rules),
    el("div", { class: "row counts" }, field(t("Players"), players), field(t("Bots"), bots), field(t("Bot level"), level)),
    about,
    el("div", { class: "row two" }, field(t("Your name"), name), field(t("Turn timer"), timer)),
    house.box,
    error,
    el("div", { class: "dialog-buttons" },
      el("button", { type: "button", value: "cancel", onclick: () => dialog.close() }, t("Cancel")),
      submit));
  const dialog = el("dialog", { class: "dialog", id: "create-dialog", "aria-labelledby": "create-title" }, form);
  form.querySelector("h2").id = "create-title";
  dialog.house = house;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const n = Number(players.value);
    const k = Number(bots.value);
    const seatBots = {};
    for (let seat = n - k; seat < n; seat += 1) seatBots[seat] = level.value;
    submit.disabled = true;
    try {
      const body = { rules: house.changed ? house.house : rules.value, players: n, bots: seatBots,
        name: name.value.trim() };
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
