// House rules in the New table form: every key of a rules file, grouped as a player thinks
// of them (GET /api/rules/schema), starting from the chosen preset's values. The form's
// state is a rules object (what a house-rules file says: `extends` and the keys changed);
// each change is checked by the server as a rules file is (POST /api/rules/check), which
// answers the rules in words, or the rules' own message and the key it is about, shown
// beside that key before the table is made. A TOML file can be loaded or pasted in, the
// rules copied out as TOML (for `eights play -r house.toml`), kept by name in this browser,
// and shared as a link (/#rules=…) that opens the form filled in.

import { lang, t, tn } from "./i18n.js";
import { el, forgetHouse, getJSON, keepHouse, postJSON, savedHouses } from "./storage.js";

const CHECK_DELAY = 250; // ms after the last change before the rules are checked

/** A rules object as a link's fragment (#rules=…: URL-safe base64 of its JSON), and back. */
export function houseLink(house) {
  const bytes = new TextEncoder().encode(JSON.stringify(house));
  const text = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${location.origin}/#rules=${text}`;
}

export function linkedHouse(hash = location.hash) {
  const match = /^#rules=([A-Za-z0-9_-]+)$/.exec(hash);
  if (!match) return null;
  try {
    const text = atob(match[1].replace(/-/g, "+").replace(/_/g, "/"));
    const house = JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    return house && typeof house === "object" && !Array.isArray(house) ? house : null;
  } catch {
    return null;
  }
}

/** A card table's key as the presets write it: "T" for "10", rank letters upper case, suits lower. */
function canonicalWhere(where) {
  const text = String(where).trim();
  const m = /^(10|[2-9TJQKAX])([cdhs♣♦♥♠]?)$/i.exec(text);
  if (!m) return text;
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  const suit = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" }[m[2]] || m[2].toLowerCase();
  return rank + suit;
}

/** A value made comparable: sets sorted, a single step as its value. */
function norm(value) {
  if (Array.isArray(value)) {
    if (value.length === 1 && Array.isArray(value[0]) && value[0].length === 2) return norm(value[0][1]);
    const items = value.map(norm);
    return items.every((v) => typeof v !== "object") ? [...items].map(String).sort() : items;
  }
  return value;
}
const same = (a, b) => JSON.stringify(norm(a)) === JSON.stringify(norm(b));

/** The house-rules section of the New table form. `onChecked(answer)` hears each check. */
export class HouseRules {
  constructor({ onChecked }) {
    this.onChecked = onChecked;
    this.schema = null;
    this.house = { extends: "classic" };
    this.players = null;
    this.where = "8"; // the card table shown
    this.answer = null; // the last check's answer
    this.timer = null;
    this.asked = 0;
    this.ready = null; // the schema's loading, once the form opens (lobby.js)
    this.box = el("details", { class: "house", id: "house-rules" });
    this.summary = el("summary", {}, t("House rules"), " ", el("span", { class: "badge house-count", id: "house-count" }));
    this.box.append(this.summary, el("p", { class: "muted small" }, t("Loading…")));
  }

  get preset() {
    return this.schema ? this.schema.presets[this.house.extends] || {} : {};
  }

  /** Whether the rules differ from the preset (then the table is made from the object). */
  get changed() {
    return Object.keys(this.house).some((k) => k !== "extends");
  }

  get valid() {
    return !this.answer || this.answer.ok;
  }

  async load() {
    this.schema = await getJSON(`/api/rules/schema?lang=${lang()}`);
    this.build();
  }

  /** Start again from `preset` (its values, nothing changed), or from a whole rules object. */
  reset(preset, house = null) {
    this.house = house ? this.canonical(house) : { extends: preset };
    if (!this.house.extends) this.house.extends = preset;
    if (this.schema) {
      this.render();
      this.check();
    }
  }

  canonical(house) {
    const copy = structuredClone(house);
    if (copy.cards && typeof copy.cards === "object") {
      copy.cards = Object.fromEntries(Object.entries(copy.cards).map(([k, v]) => [canonicalWhere(k), v]));
    }
    return copy;
  }

  // ---------------------------------------------------------------- values

  top(key) {
    return key in this.house ? this.house[key] : this.preset[key];
  }

  /** A card field's value where `where` is a rank ("8") or one card ("Js"), as the loader
   * merges them: the house's table, the preset's, the rank's (for a card), a plain card's. */
  card(where, field) {
    const own = this.house.cards?.[where]?.[field];
    if (own !== undefined) return own;
    return this.baseCard(where, field);
  }

  baseCard(where, field) {
    const preset = this.preset.cards?.[where]?.[field];
    if (preset !== undefined) return preset;
    if (where.length === 2 && where !== "10") return this.card(where[0], field);
    return this.schema.plain[field];
  }

  setTop(key, value) {
    if (value === undefined || same(value, this.preset[key])) delete this.house[key];
    else this.house[key] = value;
    this.changedNow();
  }

  setCard(where, field, value) {
    const cards = this.house.cards || {};
    const table = cards[where] || {};
    if (value === undefined || same(value, this.baseCard(where, field))) delete table[field];
    else table[field] = value;
    if (Object.keys(table).length) cards[where] = table;
    else delete cards[where];
    if (Object.keys(cards).length) this.house.cards = cards;
    else delete this.house.cards;
    this.changedNow();
  }

  changedNow() {
    this.count();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), CHECK_DELAY);
  }

  count() {
    const n = Object.keys(this.house).filter((k) => k !== "extends").length
      + (this.house.cards ? Object.values(this.house.cards).reduce((a, t) => a + Object.keys(t).length, 0) - 1 : 0);
    this.summary.querySelector("#house-count").textContent = n > 0 ? tn("{n} change", "{n} changes", n) : "";
  }

  // ---------------------------------------------------------------- checking

  async check() {
    clearTimeout(this.timer);
    const asked = ++this.asked;
    let answer;
    try {
      const body = { rules: this.house, lang: lang() };
      if (this.players) body.players = this.players;
      answer = await postJSON("/api/rules/check", body);
    } catch (exc) {
      answer = { ok: false, error: exc.message, field: null };
    }
    if (asked !== this.asked) return; // a newer check is on its way
    this.answer = answer;
    this.showAnswer();
    this.onChecked(answer);
    this.checks = (this.checks || 0) + 1;
    this.box.dataset.checks = String(this.checks); // how many answers came (the tests wait on it)
  }

  showAnswer() {
    const answer = this.answer;
    for (const node of this.box.querySelectorAll(".field-error")) {
      node.hidden = true;
      node.textContent = "";
    }
    for (const node of this.box.querySelectorAll(".bad")) node.classList.remove("bad");
    this.error.hidden = answer.ok;
    if (!answer.ok) {
      let spot = null;
      if (answer.field) {
        const card = /^cards\.([^.]+)\.(\w+)$/.exec(answer.field);
        if (card && canonicalWhere(card[1]) !== this.where) {
          this.where = canonicalWhere(card[1]); // show the card table the message is about
          this.renderCards();
        }
        const key = card ? `card.${card[2]}` : answer.field;
        spot = this.box.querySelector(`[data-key="${CSS.escape(key)}"]`);
      }
      this.error.textContent = answer.error;
      if (spot) {
        const said = spot.querySelector(".field-error");
        said.textContent = answer.error;
        said.hidden = false;
        spot.classList.add("bad");
        this.error.textContent = t("These rules cannot be played: see {field}.", { field: spot.dataset.label });
        const group = spot.closest("details.house-group");
        if (group) group.open = true;
      }
      return;
    }
    this.words.replaceChildren(...answer.words.map((line) => el("p", { class: line.startsWith("  ") ? "indent" : "" }, line.trim())));
    this.showCardWords();
    this.changes.replaceChildren(...(answer.changes.length ? answer.changes.map((line) => el("li", {}, line))
      : [el("li", { class: "muted" }, t("No change: the preset as it is."))]));
  }

  /** The lines of the rules in words about the rank shown (as `eights rules show` says them). */
  showCardWords() {
    const box = this.box.querySelector("#house-card-words");
    if (!box || !this.answer || !this.answer.ok) return;
    const lines = (this.answer.ranks || {})[this.where[0]] || [];
    box.replaceChildren(...(lines.length ? lines.map((line) => el("li", {}, line.trim()))
      : [el("li", { class: "muted" }, t("No effect: it matches by suit or rank."))]));
  }

  // ---------------------------------------------------------------- the section

  build() {
    const s = this.schema;
    this.error = el("p", { class: "error house-error", id: "house-error", role: "alert", hidden: true });
    this.words = el("div", { class: "house-words", id: "house-words", "aria-live": "polite" });
    this.changes = el("ul", { class: "house-changes", id: "house-changes" });
    this.groups = el("div", { class: "house-groups" });
    this.tools = this.buildTools();
    this.box.replaceChildren(this.summary,
      el("p", { class: "muted small" }, t("Every rule of the table, starting from the preset’s. The rules in words follow your changes.")),
      this.tools, this.error, this.groups,
      el("details", { class: "house-said", open: true }, el("summary", {}, t("Changed from the preset")), this.changes),
      el("details", { class: "house-said" }, el("summary", {}, t("The rules in words")), this.words));
    this.render();
    this.check();
    return s;
  }

  buildTools() {
    const names = el("select", { id: "house-saved", "aria-label": t("Saved house rules") });
    const fillNames = () => {
      const saved = savedHouses();
      names.replaceChildren(el("option", { value: "" }, t("Saved house rules…")),
        ...Object.keys(saved).sort().map((name) => el("option", { value: name }, name)));
    };
    fillNames();
    names.addEventListener("change", () => {
      const house = savedHouses()[names.value];
      if (house) this.loaded(house);
    });
    const saveName = el("input", { id: "house-name", maxlength: 40, placeholder: t("Name"), "aria-label": t("Name of these house rules") });
    const save = el("button", { type: "button", class: "small-button", id: "house-save" }, t("Save"));
    save.addEventListener("click", () => {
      const name = saveName.value.trim() || this.top("title") || this.house.extends;
      keepHouse(name, this.house);
      fillNames();
      names.value = name;
      this.say(t("Saved as {name}.", { name }));
    });
    const remove = el("button", { type: "button", class: "small-button subtle", id: "house-forget" }, t("Forget"));
    remove.addEventListener("click", () => {
      if (!names.value) return;
      forgetHouse(names.value);
      fillNames();
    });
    const file = el("input", { type: "file", id: "house-file", accept: ".toml,text/plain", class: "visually-hidden" });
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      if (chosen) await this.fromToml(await chosen.text());
      file.value = "";
    });
    const open = el("label", { class: "button small-button", for: "house-file" }, t("Load a TOML file"));
    const paste = el("textarea", { id: "house-toml", rows: 4, spellcheck: "false", "aria-label": t("House rules as TOML"),
      placeholder: 'extends = "classic"\nhand_size = 5' });
    const apply = el("button", { type: "button", class: "small-button", id: "house-apply" }, t("Read this TOML"));
    apply.addEventListener("click", () => this.fromToml(paste.value));
    const copy = el("button", { type: "button", class: "small-button", id: "house-copy" }, t("Copy as TOML"));
    copy.addEventListener("click", async () => {
      if (!this.answer || !this.answer.ok) return;
      paste.value = this.answer.toml;
      await copyText(this.answer.toml, paste);
      this.say(t("Copied: save it as house.toml and play it with: eights play -r house.toml"));
    });
    const share = el("button", { type: "button", class: "small-button", id: "house-share" }, t("Copy a link"));
    share.addEventListener("click", async () => {
      const link = houseLink(this.house);
      this.linkField.value = link;
      this.linkField.hidden = false;
      await copyText(link, this.linkField);
      this.say(t("Link copied: it opens this form with these house rules."));
    });
    const reset = el("button", { type: "button", class: "small-button subtle", id: "house-reset" }, t("Back to the preset"));
    reset.addEventListener("click", () => this.reset(this.house.extends));
    this.linkField = el("input", { id: "house-link", readonly: true, hidden: true, "aria-label": t("Link to these house rules") });
    this.note = el("p", { class: "muted small house-note", role: "status" });
    return el("div", { class: "house-tools" },
      el("div", { class: "house-row" }, names, saveName, save, remove),
      el("div", { class: "house-row" }, file, open, copy, share, reset),
      el("div", { class: "house-row" }, paste, apply),
      this.linkField, this.note);
  }

  say(text) {
    this.note.textContent = text;
  }

  async fromToml(text) {
    let answer;
    try {
      answer = await postJSON("/api/rules/check", { toml: text, lang: lang() });
    } catch (exc) {
      answer = { ok: false, error: exc.message };
    }
    if (!answer.ok && !answer.rules) {
      this.answer = answer;
      this.error.textContent = answer.error;
      this.error.hidden = false;
      return;
    }
    this.loaded(answer.rules);
  }

  /** Rules read from a file, a link or this browser: the preset they extend is chosen too. */
  loaded(house) {
    const preset = house.extends && this.schema.presets[house.extends] ? house.extends : this.house.extends;
    this.reset(preset, { ...house, extends: preset });
    this.onLoaded && this.onLoaded(preset);
  }

  render() {
    const s = this.schema;
    this.groups.replaceChildren(...s.groups.map((group) => el("details", {
      class: "house-group", "data-group": group.id, open: group.id === "cards" || group.id === "ending",
    }, el("summary", {}, group.title),
    el("div", { class: "house-fields" }, group.fields.map((field) => (field.kind === "card_tables"
      ? this.cardTables(field) : this.field(field, this.top(field.key), (v) => this.setTop(field.key, v))))))));
    this.count();
  }

  renderCards() {
    const box = this.groups.querySelector("#house-cards");
    if (box) box.replaceWith(this.cardTables(this.cardsField));
    this.showCardWords();
  }

  /** The tables of the cards: a choice of rank (or card), and its fields. */
  cardTables(field) {
    this.cardsField = field;
    const s = this.schema;
    const tables = new Set([...Object.keys(this.preset.cards || {}), ...Object.keys(this.house.cards || {}), this.where]);
    const choices = [...s.ranks, ...[...tables].filter((k) => !s.ranks.includes(k)).sort()];
    const pick = el("select", { id: "house-card", "aria-label": t("Which cards") }, choices.map((k) => el("option", {
      value: k, selected: k === this.where }, rankName(k) + (tables.has(k) && (this.preset.cards?.[k] || this.house.cards?.[k]) ? " ★" : ""))));
    pick.addEventListener("change", () => {
      this.where = pick.value;
      this.renderCards();
      this.groups.querySelector("#house-card").focus();
    });
    const one = el("input", { id: "house-one-card", maxlength: 3, placeholder: "Js", "aria-label": t("One card’s own table") });
    const add = el("button", { type: "button", class: "small-button", id: "house-one-add" }, t("One card’s own table"));
    add.addEventListener("click", () => {
      const where = canonicalWhere(one.value);
      if (!/^[2-9TJQKA][cdhs]$/.test(where)) return;
      this.where = where;
      this.renderCards();
    });
    const where = this.where;
    return el("div", { class: "house-cards", id: "house-cards" },
      el("p", { class: "muted small" }, field.about),
      el("div", { class: "house-row" }, el("label", { class: "field inline" }, el("span", {}, field.label), pick), one, add),
      el("ul", { class: "house-card-words", id: "house-card-words", "aria-live": "polite" }),
      el("div", { class: "house-fields card-fields", "data-where": where },
        s.card_fields.map((f) => this.field({ ...f, key: `card.${f.key}` }, this.card(where, f.key),
          (v) => this.setCard(where, f.key, v)))));
  }

  /** One key: its label, an input of its kind, what it does, and a place for the rules'
   * message about it. */
  field(field, value, set) {
    const id = `house-${field.key.replace(/\./g, "-")}`;
    let input;
    const text = (shown, parse, attrs = {}) => {
      input = el("input", { id, value: shown, ...attrs });
      input.addEventListener("change", () => set(parse(input.value)));
      return input;
    };
    switch (field.kind) {
      case "bool":
        input = el("input", { id, type: "checkbox", checked: Boolean(value) });
        input.addEventListener("change", () => set(input.checked));
        break;
      case "int":
        text(value ?? "", (v) => (v === "" ? undefined : Number(v)), { type: "number", min: field.min, max: field.max, inputmode: "numeric" });
        break;
      case "choice":
        input = el("select", { id }, field.choices.map((c) => el("option", { value: c, selected: c === value }, field.words[c])));
        input.addEventListener("change", () => set(input.value));
        break;
      case "pair": {
        const [low, high] = value || [2, 8];
        const a = el("input", { id, type: "number", min: field.min, max: field.max, value: low, "aria-label": t("fewest") });
        const b = el("input", { type: "number", min: field.min, max: field.max, value: high, "aria-label": t("most") });
        const changed = () => set([Number(a.value), Number(b.value)]);
        a.addEventListener("change", changed);
        b.addEventListener("change", changed);
        input = el("span", { class: "pair" }, a, " – ", b);
        break;
      }
      case "steps":
        text(stepsText(value), parseSteps, { inputmode: "numeric", placeholder: "7  ·  2:7, 5:5" });
        break;
      case "ranks":
        input = this.rankChips(id, value || [], set, field.key !== "ranks");
        break;
      case "cards":
        text((value || []).join(", "), (v) => v.split(/[\s,]+/).filter(Boolean), { placeholder: "2, Jc, Js", spellcheck: "false" });
        break;
      case "teams":
        text((value || []).join(", "), (v) => v.split(/[\s,]+/).filter(Boolean).map(Number), { placeholder: "4, 6" });
        break;
      case "points":
        input = this.pointsGrid(id, value || {}, set);
        break;
      default:
        text(value ?? "", (v) => v, { maxlength: field.max || 60 });
    }
    const label = field.kind === "ranks" || field.kind === "points" || field.kind === "pair"
      ? el("span", { class: "field-label", id: `${id}-label` }, field.label)
      : el("label", { class: "field-label", for: id }, field.label);
    if (input.getAttribute && !input.id) input.setAttribute("aria-labelledby", `${id}-label`);
    return el("div", { class: `house-field kind-${field.kind}`, "data-key": field.key, "data-label": field.label },
      label, input, el("p", { class: "muted small about" }, field.about),
      el("p", { class: "field-error", role: "alert", hidden: true }));
  }

  rankChips(id, value, set, joker) {
    const chosen = new Set(value.map((r) => canonicalWhere(r)));
    const ranks = this.schema.ranks.filter((r) => joker || r !== "X");
    const box = el("div", { class: "chips", id, role: "group" });
    for (const rank of ranks) {
      const chip = el("button", { type: "button", class: "chip-toggle", "data-rank": rank, "aria-pressed": String(chosen.has(rank)) }, rankName(rank));
      chip.addEventListener("click", () => {
        if (chosen.has(rank)) chosen.delete(rank);
        else chosen.add(rank);
        chip.setAttribute("aria-pressed", String(chosen.has(rank)));
        set(ranks.filter((r) => chosen.has(r)));
      });
      box.append(chip);
    }
    return box;
  }

  pointsGrid(id, value, set) {
    const points = { ...value };
    const box = el("div", { class: "points", id, role: "group" });
    for (const rank of this.schema.ranks) {
      const input = el("input", { type: "number", min: 0, max: 10000, value: points[rank] ?? "", "aria-label": rankName(rank), "data-rank": rank });
      input.addEventListener("change", () => {
        points[rank] = Number(input.value);
        set({ ...points });
      });
      box.append(el("label", { class: "point" }, el("span", {}, rankName(rank)), input));
    }
    return box;
  }
}

function rankName(key) {
  if (key === "T") return "10";
  if (key === "X") return t("joker");
  return key;
}

function stepsText(value) {
  if (value === undefined || value === null) return "";
  if (!Array.isArray(value)) return String(value);
  if (value.length === 1) return String(value[0][1]);
  return value.map(([p, v]) => `${p}:${v}`).join(", ");
}

/** "7" is 7; "2:7, 5:5" is [[2, 7], [5, 5]] (a value by player count). */
function parseSteps(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 1 && !parts[0].includes(":")) return Number(parts[0]);
  return parts.map((part) => part.split(":").map(Number));
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    field.select();
    document.execCommand("copy");
  }
}
