// The review of a round: "Review my play" after a round (the round summary) and on a
// finished table's record page (/t/CODE/record). The server values each of the person's
// decisions (POST /api/tables/CODE/review, with their seat's token, for a round that has
// ended) and answers in the page's language, its words made by the same code as the
// terminal's review (eights.i18n.advice); this draws them: the summary, what a percentage
// means, and each decision as the person's own move ("your 5th move, round 2") with its
// mark, opened on the position as the seat saw it (its hand, the up-card and the suit to
// follow, every player's card count) and every option in lines, ties sharing a rank.

import { cardPretty, cardWords, lang, suitWords, SUIT_SYMBOLS, t, tn } from "./i18n.js";
import { indexSVG } from "./cards.js";
import { el, getJSON, postJSON, seatOf } from "./storage.js";
import { notePractice } from "./practice.js";

const FINE = ["best", "equal", "good"];

/** A "Review my play" button for round `round` of table `code`, and the panel it fills;
 * null when this browser holds no seat at the table (spectators cannot ask). */
export function reviewButton(code, round) {
  const seat = seatOf(code);
  if (!seat) return null;
  const panel = el("section", { class: "review-panel", id: `review-${round}`, "aria-live": "polite", hidden: true });
  const button = el("button", { type: "button", class: "review-button", id: `review-round-${round}` }, t("Review my play"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    panel.hidden = false;
    await fillReview(panel, code, seat.token, round);
    button.disabled = false;
  });
  return el("div", { class: "review" }, button, panel);
}

/** Ask for the review and draw it in `panel` (or the server's refusal, in words). */
export async function fillReview(panel, code, token, round) {
  panel.replaceChildren(el("p", { class: "muted review-wait" }, t("The search is reviewing your play…")));
  let review;
  try {
    review = await postJSON(`/api/tables/${encodeURIComponent(code)}/review`, { token, round, lang: lang() });
  } catch (exc) {
    panel.replaceChildren(el("p", { class: "review-error", role: "alert" }, exc.message));
    return;
  }
  const parts = [
    el("h3", {}, t("Your play in round {n}", { n: review.round })),
    el("p", { class: "review-summary" }, review.summary),
  ];
  if (!review.decisions.length) {
    parts.push(el("p", { class: "muted" }, t("You had no choice to make in this round.")));
  } else {
    parts.push(el("p", { class: "muted review-meaning" }, review.meaning));
    parts.push(el("ol", { class: "review-timeline" }, review.decisions.map((d) => decisionItem(d, review))));
    if (review.worst.length) {
      parts.push(el("h4", {}, t("Your largest mistakes")),
        el("ul", { class: "review-worst" }, review.worst.map((w) => el("li", {}, w))));
    } else {
      parts.push(el("p", { class: "review-clean" }, t("No mistake: every move was best, as good as the best, or good.")));
    }
  }
  panel.replaceChildren(...parts);
  notePractice(panel, review); // practice.js: the hints asked and the moves taken back
}

/** One decision: its line (where, mark, what was played and what was better), opened on
 * the position and the options; a move that was not fine starts open. */
function decisionItem(d, review) {
  const summary = el("summary", {},
    el("span", { class: "review-where" }, d.where),
    el("span", { class: "review-mark" }, d.mark_text),
    el("span", { class: "review-played" }, `${d.played_text} (${pct(d.win)})`),
    d.mark === "best" ? null
      : el("span", { class: "review-best" }, d.mark === "equal"
        ? `= ${d.best_text} (${pct(d.best_win)})`
        : t("better: {action}", { action: `${d.best_text} (${pct(d.best_win)})` })));
  return el("li", { class: `review-decision mark-${d.mark}`, "data-mark": d.mark, "data-turn": d.turn, "data-move": d.move },
    el("details", { open: !FINE.includes(d.mark) }, summary,
      d.mistake ? el("p", { class: "review-mistake" }, d.mistake) : null,
      positionView(d.position, review.names || []),
      el("ol", { class: "review-lines" }, d.lines.map((line) =>
        el("li", { class: `review-line${line.kind ? ` line-${line.kind}` : ""}`, "data-rank": line.rank }, line.text)))));
}

/** A chance as the page writes it: "31%" ("31 %" in French), as the server's words do. */
function pct(x) {
  const n = String(Math.round(100 * x));
  return lang() === "fr" ? `${n}\u00a0%` : `${n}%`;
}

/** The position as the seat saw it: the up-card and the suit to follow, its hand, and every
 * seat's card count (the seat's own is "You"). Nothing else: the review holds nothing more. */
function positionView(pos, names) {
  const card = (c) => el("span", { class: "review-card", role: "img", "aria-label": cardWords(c), html: indexSVG(c) });
  const follow = pos.free ? t("Any card may be played")
    : pos.suit ? t("Suit to follow: {suit}", { suit: `${SUIT_SYMBOLS[pos.suit]} ${suitWords(pos.suit)}` }) : null;
  const counts = pos.hand_sizes.map((n, seat) => el("li", { class: seat === pos.seat ? "review-me" : "" },
    t("{name}: {count}", { name: seat === pos.seat ? t("You") : names[seat] || `${seat + 1}`, count: tn("{n} card", "{n} cards", n) })));
  return el("div", { class: "review-position" },
    el("div", { class: "review-table" },
      el("div", { class: "review-up" }, card(pos.up_card),
        el("span", {}, t("Up-card: {card} ({words})", { card: cardPretty(pos.up_card), words: cardWords(pos.up_card) }))),
      follow ? el("p", { class: "review-follow" }, follow) : null,
      pos.pending_draw ? el("p", { class: "review-follow" }, tn("{n} card to draw.", "{n} cards to draw.", pos.pending_draw)) : null),
    el("div", { class: "review-hand" }, el("h5", {}, t("Your hand")),
      el("div", { class: "review-cards" }, pos.hand.map(card))),
    el("ul", { class: "review-counts" }, counts,
      el("li", {}, t("{name}: {count}", { name: t("Stock"), count: pos.stock }))));
}

/** /t/CODE/record: a finished table's rounds, each with its review for a player of it. */
export async function showRecord(root, code) {
  let record;
  try {
    record = await getJSON(`/api/tables/${encodeURIComponent(code)}/record`);
  } catch (exc) {
    root.replaceChildren(el("section", { class: "panel", id: "record-page" },
      el("p", { class: "review-error", role: "alert" }, exc.message),
      el("a", { class: "button", href: "/" }, t("Back to the lobby"))));
    return;
  }
  const seat = seatOf(code);
  const rounds = record.rounds.map((round, i) => el("li", { class: "record-round" },
    el("h3", {}, t("Round {n}", { n: i + 1 })),
    el("p", { class: "muted" }, tn("{n} move", "{n} moves", round.actions.length)),
    reviewButton(code, i + 1)));
  root.replaceChildren(el("section", { class: "panel", id: "record-page" },
    el("h2", {}, t("Record of table {code}", { code })),
    seat ? null : el("p", { class: "muted" }, t("Only the players of this table can review their play.")),
    el("ol", { class: "record-rounds" }, rounds),
    el("div", { class: "dialog-buttons" },
      el("a", { class: "button", href: `/api/tables/${encodeURIComponent(code)}/record`, download: `eights-${code}.json` }, t("Download the record")),
      el("a", { class: "button", href: `/t/${encodeURIComponent(code)}` }, t("Back to the table")))));
}
