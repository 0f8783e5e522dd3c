// The page's words, from the server's message catalogs (GET /api/i18n/{lang}).
// t("Round {n}", {n: 2}) looks a message id up and fills its placeholders;
// tn("{n} card", "{n} cards", n) picks the plural form by the language's rule.

const LANGS = ["en", "fr"];
let catalog = { lang: "en", messages: {}, plurals: {} };

/** The language to show: the one chosen here before, else ?lang=, else the browser's. */
export function chooseLanguage() {
  const query = new URLSearchParams(location.search).get("lang");
  if (query && LANGS.includes(query)) {
    localStorage.setItem("eights.lang", query);
    return query;
  }
  const saved = localStorage.getItem("eights.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

export async function loadCatalog(lang) {
  const answer = await fetch(`/api/i18n/${lang}`);
  if (!answer.ok) throw new Error(`GET /api/i18n/${lang}: ${answer.status}`);
  catalog = await answer.json();
  document.documentElement.lang = catalog.lang;
}

export function lang() {
  return catalog.lang;
}

function fill(text, values) {
  return text.replace(/\{(\w+)(?::([^}]*))?\}/g, (whole, name, spec) => {
    if (!(name in values)) return whole;
    const value = values[name];
    if (spec === "+d" && typeof value === "number") return value > 0 ? `+${value}` : String(value);
    return String(value);
  });
}

/** The translation of a message id, its placeholders filled. */
export function t(id, values = {}) {
  return fill(catalog.messages[id] ?? id, values);
}

/** The plural form for n (French: singular for 0 and 1; English: for 1 only). */
export function tn(one, many, n, values = {}) {
  const forms = catalog.plurals[one] ?? [one, many];
  const singular = catalog.lang === "fr" ? n <= 1 : n === 1;
  return fill(singular ? forms[0] : forms[1], { n, ...values });
}

// ------------------------------------------------------------------ cards in words

const RANK_WORDS = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", X: "joker",
};
const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** "queen of hearts", "dame de cœur"; a joker is "joker". */
export function cardWords(card) {
  const rank = card[0];
  if (rank === "X") return t("joker");
  return t("{rank} of {suit}", { rank: t(RANK_WORDS[rank]), suit: t(SUIT_WORDS[card[1]]) });
}

export function suitWords(letter) {
  return t(SUIT_WORDS[letter]);
}

/** A rank as players write it: "10", and the court cards' letters of the language
 * (J, Q, K in English; V, D, R in French, as the terminal and the log write them). */
export function rankLabel(rank) {
  if (rank === "T") return "10";
  if (rank === "J") return t("J");
  if (rank === "Q") return t("Q");
  if (rank === "K") return t("K");
  return rank;
}

/** "Q♥" ("D♥" in French), "10♦", "🃏" (as the terminal prints cards). */
export function cardPretty(card) {
  const rank = card[0];
  if (rank === "X") return "🃏";
  return rankLabel(rank) + SUIT_SYMBOLS[card[1]];
}

/** An action as a player reads it: "8♥, naming ♠", "draw". */
export function actionWords(action) {
  if (action === "draw") return t("draw");
  if (action === "pass") return t("pass");
  if (action === "take") return t("take a card");
  const announce = action.endsWith("!");
  const [card, suit] = action.replace("!", "").split("=");
  let text = cardPretty(card);
  if (suit) text = t("{card}, naming {suit}", { card: text, suit: SUIT_SYMBOLS[suit] });
  if (announce) text = t("{play} and announce the last card", { play: text });
  return text;
}

/** A preset's title in this language (the catalog's), else the title the server gave. */
export function presetTitle(name, fallback) {
  return (catalog.presets && catalog.presets[name]) || fallback || name;
}

/** A seat's name as this page says it: a bot's name in this language ("Bot 2" is "Robot 2",
 * as the terminal says it; the server narrates the log the same way), else the name given. */
export function seatName(seat) {
  const bot = seat.kind === "bot" && /^Bot ([1-9][0-9]{0,2})$/.exec(seat.name || "");
  return bot ? t("Bot {n}", { n: Number(bot[1]) }) : seat.name;
}

/** What a table is called: the title its host gave, else its rules' title. */
export function tableTitle(table) {
  return table.title || presetTitle(table.rules, table.rules_title);
}

/** A bot's level in words, as the terminal names it ("Greedy", "Search + learned"); a spec
 * with options of its own by its bot's level and the spec ("Search (ismcts:time=2)"); an
 * unknown bot by its spec. */
export function levelName(spec) {
  const levels = catalog.levels || {};
  if (levels[spec]) return levels[spec][0];
  const bot = String(spec).split(":")[0];
  return levels[bot] ? `${levels[bot][0]} (${spec})` : spec;
}

/** What a level does, in one line ("" for a spec that is not one of the levels). */
export function levelAbout(spec) {
  const levels = catalog.levels || {};
  return levels[spec] ? levels[spec][1] : "";
}
